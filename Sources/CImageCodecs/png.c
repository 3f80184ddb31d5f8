// PNG through libpng: encoding with its simplified API, which reports errors as return values;
// decoding with the full API and transforms of our choosing.
#include "ImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

static void tic_png_fail(png_image *image, tic_error *error) {
    error->status = TIC_CORRUPT;
    snprintf(error->message, sizeof error->message, "%s", image->message);
    png_image_free(image);
}

static void tic_png_begin(png_image *image, tic_error *error) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    error->status = TIC_OK;
    error->message[0] = '\0';
}

/// Where libpng reads from, and how its errors end a decode.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    int truncated;
    tic_error *error;
    jmp_buf jump;
} tic_png_reader;

static void tic_png_read(png_structp png, png_bytep target, size_t length) {
    tic_png_reader *reader = png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        reader->truncated = 1;
        png_error(png, "the data ends before the image does");
    }
    memcpy(target, reader->data + reader->offset, length);
    reader->offset += length;
}

static void tic_png_error(png_structp png, png_const_charp message) {
    tic_png_reader *reader = png_get_error_ptr(png);
    reader->error->status = reader->truncated ? TIC_TRUNCATED : TIC_CORRUPT;
    snprintf(reader->error->message, sizeof reader->error->message, "%s", message);
    longjmp(reader->jump, 1);
}

static void tic_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

// The full libpng API rather than the simplified one: the simplified reader mixes up the rows
// of Adam7-interlaced 16-bit images, and takes 16-bit samples without a colour space for linear.
int tic_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                        tic_error *error) {
    tic_png_reader reader = {data, size, 0, 0, error, {{0}}};
    error->status = TIC_OK;
    error->message[0] = '\0';
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, tic_png_error, tic_png_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        error->status = TIC_OUT_OF_MEMORY;
        snprintf(error->message, sizeof error->message, "libpng could not start");
        png_destroy_read_struct(&png, NULL, NULL);
        return 0;
    }
    if (setjmp(reader.jump)) {
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    png_set_read_fn(png, &reader, tic_png_read);
    png_read_info(png, info);
    if ((int)png_get_image_width(png, info) != width || (int)png_get_image_height(png, info) != height) {
        error->status = TIC_SIZE_MISMATCH;
        snprintf(error->message, sizeof error->message, "is %ux%u, not %dx%d", png_get_image_width(png, info),
                 png_get_image_height(png, info), width, height);
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    // Everything becomes 8-bit RGBA, not premultiplied. Samples are taken as sRGB unless the
    // file states another gamma (and no sRGB chunk), as browsers read them; sixteen-bit
    // samples are scaled to eight bits with rounding.
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    }
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_tRNS_to_alpha(png);
    }
    if (bit_depth == 16) {
        png_set_scale_16(png);
    }
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_fixed_point file_gamma;
    if (!png_get_valid(png, info, PNG_INFO_sRGB) && png_get_gAMA_fixed(png, info, &file_gamma)) {
        png_set_gamma_fixed(png, PNG_DEFAULT_sRGB, file_gamma);
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = (size_t)width * 4;
    if (png_get_rowbytes(png, info) != stride) {
        error->status = TIC_CORRUPT;
        snprintf(error->message, sizeof error->message, "rows are %zu bytes, not %zu",
                 (size_t)png_get_rowbytes(png, info), stride);
        png_destroy_read_struct(&png, &info, NULL);
        return 0;
    }
    // Each pass of an interlaced image adds its pixels to the rows the previous passes left.
    for (int pass = 0; pass < passes; pass++) {
        for (int row = 0; row < height; row++) {
            png_read_row(png, pixels + (size_t)row * stride, NULL);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return 1;
}

int tic_png_encode_rgba(const uint8_t *pixels, int width, int height, uint8_t **output,
                        size_t *output_size, tic_error *error) {
    png_image image;
    tic_png_begin(&image, error);
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = PNG_FORMAT_RGBA;
    size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, pixels, (png_int_32)width * 4, NULL)) {
        tic_png_fail(&image, error);
        return 0;
    }
    uint8_t *buffer = malloc(size);
    if (buffer == NULL) {
        error->status = TIC_OUT_OF_MEMORY;
        png_image_free(&image);
        return 0;
    }
    if (!png_image_write_to_memory(&image, buffer, &size, 0, pixels, (png_int_32)width * 4, NULL)) {
        free(buffer);
        tic_png_fail(&image, error);
        return 0;
    }
    *output = buffer;
    *output_size = size;
    return 1;
}
