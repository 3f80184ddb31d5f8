// JPEG through libjpeg(-turbo). libjpeg reports fatal errors by calling error_exit, which must
// not return; these functions turn that into a status with setjmp/longjmp so that no error
// ever reaches Swift as an abort.
#include "ImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    tic_error *error;
} tic_jpeg_errors;

typedef struct {
    struct jpeg_progress_mgr base;
    int max_scans;
} tic_jpeg_progress;

static void tic_jpeg_fail(j_common_ptr info, tic_status status) {
    tic_jpeg_errors *errors = (tic_jpeg_errors *)info->err;
    errors->error->status = status;
    (*info->err->format_message)(info, errors->error->message);
    longjmp(errors->jump, 1);
}

static void tic_jpeg_error_exit(j_common_ptr info) {
    tic_status status = info->err->msg_code == JERR_OUT_OF_MEMORY ? TIC_OUT_OF_MEMORY : TIC_CORRUPT;
    tic_jpeg_fail(info, status);
}

// Warnings are tolerated (libjpeg recovers from them), except the end of the data arriving
// before the end of the image: libjpeg would fill the rest with grey and call it a success.
static void tic_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) {
        tic_jpeg_fail(info, TIC_TRUNCATED);
    }
}

// A progressive JPEG may carry any number of scans, each a full pass over the coefficients: a
// tiny file could keep the decoder busy for minutes. Bound them.
static void tic_jpeg_progress_monitor(j_common_ptr info) {
    if (!info->is_decompressor) {
        return;
    }
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    tic_jpeg_progress *progress = (tic_jpeg_progress *)info->progress;
    if (decompress->input_scan_number > progress->max_scans) {
        tic_jpeg_errors *errors = (tic_jpeg_errors *)info->err;
        errors->error->status = TIC_CORRUPT;
        snprintf(errors->error->message, sizeof errors->error->message,
                 "more than %d progressive scans", progress->max_scans);
        longjmp(errors->jump, 1);
    }
}

static void tic_jpeg_install_errors(struct jpeg_decompress_struct *info, tic_jpeg_errors *errors,
                                    tic_error *error) {
    info->err = jpeg_std_error(&errors->base);
    errors->base.error_exit = tic_jpeg_error_exit;
    errors->base.emit_message = tic_jpeg_emit_message;
    errors->error = error;
    error->status = TIC_OK;
    error->message[0] = '\0';
}

static void tic_jpeg_scale(struct jpeg_decompress_struct *info, int scale_num) {
    info->scale_num = (unsigned int)(scale_num < 1 ? 1 : scale_num > 8 ? 8 : scale_num);
    info->scale_denom = 8;
}

int tic_jpeg_read_header(const uint8_t *data, size_t size, int scale_num, tic_jpeg_header *header,
                         tic_error *error) {
    struct jpeg_decompress_struct info;
    tic_jpeg_errors errors;
    tic_jpeg_install_errors(&info, &errors, error);
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    tic_jpeg_scale(&info, scale_num);
    jpeg_calc_output_dimensions(&info);
    header->width = (int)info.image_width;
    header->height = (int)info.image_height;
    header->scaled_width = (int)info.output_width;
    header->scaled_height = (int)info.output_height;
    header->components = info.num_components;
    header->progressive = jpeg_has_multiple_scans(&info) ? 1 : 0;
    jpeg_destroy_decompress(&info);
    return 1;
}

// Adobe writes CMYK inverted; libjpeg-turbo cannot convert CMYK to RGB itself.
static void tic_cmyk_to_rgba(const JSAMPLE *cmyk, uint8_t *rgba, int width, int inverted) {
    for (int x = 0; x < width; x++) {
        int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        rgba[0] = (uint8_t)((c * k + 127) / 255);
        rgba[1] = (uint8_t)((m * k + 127) / 255);
        rgba[2] = (uint8_t)((y * k + 127) / 255);
        rgba[3] = 255;
        cmyk += 4;
        rgba += 4;
    }
}

int tic_jpeg_decode_rgba(const uint8_t *data, size_t size, int scale_num, uint8_t *pixels, int width,
                         int height, int max_scans, tic_error *error) {
    // At 1/8 scale a JPEG needs only its DC coefficients, which a decoder of its own reads
    // without storing the rest; anything it does not take on is libjpeg's.
    if (scale_num == 1 && tic_jpeg_decode_dc_rgba(data, size, pixels, width, height, max_scans)) {
        error->status = TIC_OK;
        error->message[0] = '\0';
        return 1;
    }
    return tic_jpeg_decode_libjpeg_rgba(data, size, scale_num, pixels, width, height, max_scans, error);
}

int tic_jpeg_decode_libjpeg_rgba(const uint8_t *data, size_t size, int scale_num, uint8_t *pixels, int width,
                                 int height, int max_scans, tic_error *error) {
    struct jpeg_decompress_struct info;
    tic_jpeg_errors errors;
    tic_jpeg_progress progress;
    tic_jpeg_install_errors(&info, &errors, error);
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        return 0;
    }
    jpeg_create_decompress(&info);
    memset(&progress, 0, sizeof progress);
    progress.base.progress_monitor = tic_jpeg_progress_monitor;
    progress.max_scans = max_scans;
    info.progress = &progress.base;
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    tic_jpeg_scale(&info, scale_num);
    if (scale_num < 8) {
        // A reduced-scale decode is a thumbnail's source and is resampled afterwards: the faster
        // integer IDCT and plain chroma upsampling cost nothing visible there.
        info.dct_method = JDCT_IFAST;
        info.do_fancy_upsampling = FALSE;
    }
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&info);
    if ((int)info.output_width != width || (int)info.output_height != height) {
        error->status = TIC_SIZE_MISMATCH;
        snprintf(error->message, sizeof error->message, "decodes to %ux%u, not %dx%d",
                 info.output_width, info.output_height, width, height);
        jpeg_destroy_decompress(&info);
        return 0;
    }
    size_t stride = (size_t)width * 4;
    if (cmyk) {
        JSAMPARRAY row = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE, (JDIMENSION)stride, 1);
        while (info.output_scanline < info.output_height) {
            uint8_t *target = pixels + (size_t)info.output_scanline * stride;
            jpeg_read_scanlines(&info, row, 1);
            tic_cmyk_to_rgba(row[0], target, width, info.saw_Adobe_marker);
        }
    } else {
        JSAMPROW rows[16];
        while (info.output_scanline < info.output_height) {
            JDIMENSION count = info.output_height - info.output_scanline;
            if (count > 16) {
                count = 16;
            }
            for (JDIMENSION index = 0; index < count; index++) {
                rows[index] = pixels + (size_t)(info.output_scanline + index) * stride;
            }
            jpeg_read_scanlines(&info, rows, count);
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 1;
}

typedef struct {
    unsigned char *buffer;
    unsigned long size;
} tic_jpeg_destination;

int tic_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, tic_jpeg_options options,
                         uint8_t **output, size_t *output_size, tic_error *error) {
    struct jpeg_compress_struct info;
    tic_jpeg_errors errors;
    // On the heap, so that what jpeg_mem_dest allocated is still known after a longjmp.
    tic_jpeg_destination *destination = calloc(1, sizeof(tic_jpeg_destination));
    error->status = TIC_OK;
    error->message[0] = '\0';
    if (destination == NULL) {
        error->status = TIC_OUT_OF_MEMORY;
        return 0;
    }
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = tic_jpeg_error_exit;
    errors.base.emit_message = tic_jpeg_emit_message;
    errors.error = error;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        free(destination->buffer);
        free(destination);
        return 0;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &destination->buffer, &destination->size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    if (options.grayscale) {
        jpeg_set_colorspace(&info, JCS_GRAYSCALE);
    } else {
        info.comp_info[0].h_samp_factor = options.luma_h == 1 ? 1 : 2;
        info.comp_info[0].v_samp_factor = options.luma_v == 1 ? 1 : 2;
    }
    jpeg_set_quality(&info, options.quality, TRUE);
    info.restart_interval = options.restart_interval > 0 ? (unsigned int)options.restart_interval : 0;
    if (options.progressive) {
        jpeg_simple_progression(&info);
    }
    jpeg_start_compress(&info, TRUE);
    size_t stride = (size_t)width * 4;
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = destination->buffer;
    *output_size = destination->size;
    free(destination);
    return 1;
}

void tic_free(void *pointer) { free(pointer); }
