#ifndef TRIBUTARY_IMAGE_CODECS_H
#define TRIBUTARY_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

/// Why a codec call failed.
typedef enum {
    TIC_OK = 0,
    /// The codec rejected the data.
    TIC_CORRUPT = 1,
    /// The data ended before the image did.
    TIC_TRUNCATED = 2,
    /// The image is not the size the caller allocated for, or exceeds a codec limit.
    TIC_SIZE_MISMATCH = 3,
    /// The codec could not allocate memory.
    TIC_OUT_OF_MEMORY = 4,
} tic_status;

typedef struct {
    tic_status status;
    /// The codec's own message, NUL-terminated.
    char message[200];
} tic_error;

typedef struct {
    /// Full size, from the frame header.
    int width;
    int height;
    /// The size a decode at `scale_num`/8 produces.
    int scaled_width;
    int scaled_height;
    int components;
    int progressive;
} tic_jpeg_header;

/// Reads a JPEG's header and the size a decode at `scale_num`/8 (1...8) would produce.
int tic_jpeg_read_header(const uint8_t *data, size_t size, int scale_num, tic_jpeg_header *header,
                         tic_error *error);

/// Decodes a JPEG at `scale_num`/8 of its size into `pixels`: `width` x `height` RGBA, 4 bytes
/// per pixel, rows packed. Fails when the decoded size differs from `width` x `height`.
int tic_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_num, uint8_t *pixels, int width,
                         int height, int max_scans, tic_error *error);

/// `tic_jpeg_decode_rgba` with libjpeg alone, never the DC decoder.
int tic_jpeg_decode_libjpeg_rgba(const uint8_t *data, size_t size, int scale_num, uint8_t *pixels, int width,
                                 int height, int max_scans, tic_error *error);

/// How `tic_jpeg_encode_rgba` writes a JPEG.
typedef struct {
    /// 1...100.
    int quality;
    /// Nonzero for a progressive JPEG.
    int progressive;
    /// MCUs between restart markers; 0 for none.
    int restart_interval;
    /// Nonzero for one grey component instead of YCbCr.
    int grayscale;
    /// The luma component's sampling factors (1 or 2 each; chroma is always 1x1): 2x2 is 4:2:0,
    /// 2x1 is 4:2:2, 1x1 is 4:4:4.
    int luma_h;
    int luma_v;
} tic_jpeg_options;

/// Encodes packed RGBA pixels (alpha ignored) as a JPEG. The output is allocated with malloc;
/// release it with `tic_free`.
int tic_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, tic_jpeg_options options,
                         uint8_t **output, size_t *output_size, tic_error *error);

/// Decodes a baseline or progressive JPEG at 1/8 scale from its DC coefficients alone, into
/// `width` x `height` RGBA (the 1/8 size). Returns 0, having decided nothing, for JPEGs it does
/// not take on, among them any with more than `max_scans` scans.
int tic_jpeg_decode_dc_rgba(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                            int max_scans);

/// Decodes a PNG of any colour type and depth into packed 8-bit RGBA.
int tic_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                        tic_error *error);

/// Encodes packed RGBA pixels as a PNG. The output is allocated with malloc; release it with
/// `tic_free`.
int tic_png_encode_rgba(const uint8_t *pixels, int width, int height, uint8_t **output,
                        size_t *output_size, tic_error *error);

void tic_free(void *pointer);

#endif
