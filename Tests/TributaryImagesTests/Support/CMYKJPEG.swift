#if canImport(CJPEG)
    import CJPEG
    import Foundation

    /// CMYK and YCCK JPEGs written with libjpeg itself, which the library's own encoder never
    /// produces: print workflows do.
    enum CMYKJPEG {
        /// The file of `width`×`height` CMYK samples (four bytes a pixel, 0 = no ink), stored the
        /// way Photoshop stores them — inverted, with an Adobe marker — unless `adobe` is false.
        static func encode(
            width: Int,
            height: Int,
            inks: [UInt8],
            adobe: Bool = true,
            ycck: Bool = false
        ) -> Data {
            var info = jpeg_compress_struct()
            var errors = jpeg_error_mgr()
            info.err = jpeg_std_error(&errors)
            jpeg_CreateCompress(&info, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
            defer { jpeg_destroy_compress(&info) }
            var output: UnsafeMutablePointer<UInt8>?
            var size: UInt = 0
            jpeg_mem_dest(&info, &output, &size)
            info.image_width = JDIMENSION(width)
            info.image_height = JDIMENSION(height)
            info.input_components = 4
            info.in_color_space = JCS_CMYK
            jpeg_set_defaults(&info)
            jpeg_set_quality(&info, 100, 1)
            if ycck { jpeg_set_colorspace(&info, JCS_YCCK) }
            info.write_Adobe_marker = adobe ? 1 : 0
            jpeg_start_compress(&info, 1)
            // An Adobe file holds inverted inks; a file without the marker holds them as they are.
            var row = [UInt8](repeating: 0, count: width * 4)
            for y in 0..<height {
                for index in 0..<(width * 4) {
                    let ink = inks[y * width * 4 + index]
                    row[index] = adobe ? 255 - ink : ink
                }
                row.withUnsafeMutableBufferPointer { buffer in
                    var pointer: JSAMPROW? = buffer.baseAddress
                    _ = jpeg_write_scanlines(&info, &pointer, 1)
                }
            }
            jpeg_finish_compress(&info)
            let data = Data(bytes: output!, count: Int(size))
            free(output)
            return data
        }
    }
#endif
