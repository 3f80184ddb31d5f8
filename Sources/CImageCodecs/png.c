// PNG through libpng's simplified API, which handles every colour type and bit depth and
// reports errors as return values.
#include "ImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

static void tic_png_fail(png_image *image, tic_error *error) {
    const char *message = image->message;
    error->status = TIC_CORRUPT;
    if (strstr(message, "EOF") != NULL || strstr(message, "Not enough image data") != NULL ||
        strstr(message, "Read Error") != NULL || strstr(message, "beyond end") != NULL || strstr(message, "truncated") != NULL) {
        error->status = TIC_TRUNCATED;
    }
    snprintf(error->message, sizeof error->message, "%s", message);
    png_image_free(image);
}

static void tic_png_begin(png_image *image, tic_error *error) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    error->status = TIC_OK;
    error->message[0] = '\0';
}

static int tic_png_open(png_image *image, const uint8_t *data, size_t size, tic_error *error) {
    tic_png_begin(image, error);
    if (!png_image_begin_read_from_memory(image, data, size)) {
        tic_png_fail(image, error);
        return 0;
    }
    return 1;
}

int tic_png_read_header(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha,
                        tic_error *error) {
    png_image image;
    if (!tic_png_open(&image, data, size, error)) {
        return 0;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    *has_alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
    png_image_free(&image);
    return 1;
}

int tic_png_decode_rgba(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                        tic_error *error) {
    png_image image;
    if (!tic_png_open(&image, data, size, error)) {
        return 0;
    }
    if ((int)image.width != width || (int)image.height != height) {
        error->status = TIC_SIZE_MISMATCH;
        snprintf(error->message, sizeof error->message, "is %ux%u, not %dx%d", image.width, image.height,
                 width, height);
        png_image_free(&image);
        return 0;
    }
    image.format = PNG_FORMAT_RGBA;
    if (!png_image_finish_read(&image, NULL, pixels, (png_int_32)width * 4, NULL)) {
        tic_png_fail(&image, error);
        return 0;
    }
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
