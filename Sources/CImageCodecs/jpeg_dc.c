// A JPEG at 1/8 scale: one output pixel per 8x8 luma block, the block's mean, which is its DC
// coefficient. In a baseline JPEG, chroma subsampled 2x2 gives each chroma block four output
// pixels, the means of its quadrants, which depend on a few low-frequency coefficients; chroma
// subsampled in one direction only is repeated along it, as libjpeg does without fancy
// upsampling. Every other AC coefficient is passed over without being stored or transformed,
// which is most of what decoding a photo costs.
//
// A progressive JPEG sends its coefficients in scans, each a band of them for one component or
// DC for several, first and then refining bit by bit. Its DC scans are decoded, and the AC
// scans of chroma subsampled 2x2 (whose quadrant means need them) into stored coefficients;
// every other AC scan is skipped from marker to marker without being read.
//
// It takes on 8-bit Huffman-coded grey or YCbCr with integral sampling factors and any restart
// interval. Every read is bounds-checked against the input, and any doubt ends in "not
// handled" (0), so that libjpeg decides what happens to unusual or damaged data exactly as it
// would otherwise.
#include "ImageCodecs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    // Bits looked at once when decoding a Huffman code.
    LOOKAHEAD = 12,
    MAX_COMPONENTS = 3,
    MAX_BLOCKS_IN_MCU = 10,
};

typedef struct {
    int defined;
    // (length << 8) | symbol for every LOOKAHEAD-bit prefix that starts with a code of at most
    // LOOKAHEAD bits; 0 otherwise.
    uint16_t plain[1 << LOOKAHEAD];
    // For AC tables, how to pass over the next one or two coefficients: for the first, the bits
    // of its code and magnitude (bits 0-3) and how far the coefficient index moves (bits 4-10;
    // 64 ends the block); for both together, the bits (11-15) and the move (16-23), which are
    // the first's alone when the second does not fit in the LOOKAHEAD bits too. 0 when not even
    // the first fits.
    uint32_t skip[1 << LOOKAHEAD];
    // Canonical decoding of longer codes.
    int32_t maxcode[17];
    int32_t valoffset[17];
    uint8_t symbols[256];
    int count;
} huffman_table;

typedef struct {
    int id;
    int h, v;
    int quant;
    int dc_table, ac_table;
    // Output samples per block along each axis: 1 (the block's mean) or 2 (its quadrants' means).
    int scale;
    // The component's samples, `blocks_wide * scale` per row.
    uint8_t *samples;
    // Blocks the frame's MCUs cover, partial MCUs included.
    int blocks_wide, blocks_high;
    int64_t predictor;
    // Progressive only: each block's coefficients as the scans so far have them, in zigzag
    // order (the DC coefficient alone at scale 1, all 64 at scale 2), and the point transform of
    // the latest DC scan (-1 before the first).
    int16_t *coefficients;
    int coefficients_per_block;
    int dc_shift;
    // Progressive only: the point transform of the latest scan to start on each of the first
    // ten coefficients (-1 before any). libjpeg smooths blocks whose first ten coefficients are
    // not all complete, so this decoder takes only images where they are.
    int low_bits[10];
} component;

typedef struct {
    const uint8_t *p;
    const uint8_t *end;
    // Bits not yet consumed, most significant first.
    uint64_t acc;
    int n;
    // How many of the `n` bits are zeros standing in for data after a marker or the end.
    int pad;
} bit_reader;

typedef struct {
    huffman_table dc[4];
    huffman_table ac[4];
    int quant_defined[4];
    // Quantizers in zigzag order, the order coefficients arrive in.
    uint16_t quant[4][64];
    // For each coefficient in zigzag order, its share of each quadrant's mean (top left, top
    // right, bottom left, bottom right) per unit of dequantized value; zero for most.
    float quadrant_weights[64][4];
    int restart_interval;
    int progressive;
    int width, height;
    int component_count;
    component components[MAX_COMPONENTS];
    int h_max, v_max;
    int mcus_wide, mcus_high;
    // The current scan: its components (frame indices, in its order), spectral selection and
    // successive approximation.
    int scan_count;
    int scan_order[MAX_COMPONENTS];
    int ss, se, ah, al;
    // Blocks left in the current run of end-of-bands, in a progressive AC scan.
    int eobrun;
    // Scans so far, and how many a file may have before libjpeg refuses it.
    int scans;
    int max_scans;
} frame;

static int read16(const uint8_t *p) { return (p[0] << 8) | p[1]; }

// The natural (row-major) position of each coefficient in zigzag order.
static const uint8_t zigzag_to_natural[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

// The inverse DCT is f(x, y) = 1/4 sum C(u) C(v) F(u, v) cos((2x+1)u pi/16) cos((2y+1)v pi/16),
// with C(0) = 1/sqrt(2) and C(k) = 1 otherwise. Its mean over a quadrant is separable: for each
// axis the mean of the cosine over that half, which is 1 for frequency 0, 0 for the other even
// frequencies, and opposite in the two halves for odd ones.
static void compute_quadrant_weights(float weights[64][4]) {
    double half_mean[8][2];
    for (int u = 0; u < 8; u++) {
        double sum = 0;
        for (int x = 0; x < 4; x++) {
            sum += cos((2 * x + 1) * u * M_PI / 16);
        }
        half_mean[u][0] = sum / 4;
        half_mean[u][1] = (u % 2 ? -1 : 1) * sum / 4;
    }
    for (int k = 0; k < 64; k++) {
        int v = zigzag_to_natural[k] / 8;
        int u = zigzag_to_natural[k] % 8;
        double scale = (u ? 1 : M_SQRT1_2) * (v ? 1 : M_SQRT1_2) / 4;
        for (int quadrant = 0; quadrant < 4; quadrant++) {
            double weight = scale * half_mean[u][quadrant & 1] * half_mean[v][quadrant >> 1];
            weights[k][quadrant] = fabs(weight) < 1e-9 ? 0 : (float)weight;
        }
    }
}

// Completes each single-coefficient skip entry with the coefficient after it, when the
// LOOKAHEAD bits hold that one whole as well.
static void pair_skips(uint32_t skip[1 << LOOKAHEAD]) {
    for (int entry = 0; entry < (1 << LOOKAHEAD); entry++) {
        uint32_t first = skip[entry];
        int bits = (int)(first & 15);
        int advance = (int)(first >> 4) & 127;
        uint32_t total_bits = (uint32_t)bits;
        uint32_t total_advance = (uint32_t)advance;
        if (first && advance < 64 && bits < LOOKAHEAD) {
            uint32_t second = skip[(entry << bits) & ((1 << LOOKAHEAD) - 1)];
            int second_bits = (int)(second & 15);
            if (second && second_bits <= LOOKAHEAD - bits) {
                total_bits += (uint32_t)second_bits;
                total_advance += (second >> 4) & 127;
            }
        }
        skip[entry] = first ? (first & 2047) | (total_bits << 11) | (total_advance << 16) : 0;
    }
}

// Builds the lookup tables from a DHT table's 16 counts and its symbols. 0 when the counts
// describe no valid prefix code.
static int build_table(huffman_table *table, const uint8_t counts[16], const uint8_t *symbols, int count,
                       int is_ac) {
    memset(table, 0, sizeof *table);
    memcpy(table->symbols, symbols, (size_t)count);
    table->count = count;
    int32_t code = 0;
    int index = 0;
    for (int length = 1; length <= 16; length++) {
        int n = counts[length - 1];
        table->valoffset[length] = index - code;
        for (int i = 0; i < n; i++, index++, code++) {
            if (code >= (1 << length)) {
                return 0;
            }
            if (length > LOOKAHEAD) {
                continue;
            }
            int symbol = symbols[index];
            int first = code << (LOOKAHEAD - length);
            int last = (code + 1) << (LOOKAHEAD - length);
            uint16_t plain = (uint16_t)((length << 8) | symbol);
            uint32_t skip = 0;
            if (is_ac) {
                int run = symbol >> 4;
                int magnitude = symbol & 15;
                int advance = magnitude ? run + 1 : run == 15 ? 16 : 64;
                if (length + magnitude <= LOOKAHEAD) {
                    skip = (uint32_t)((length + magnitude) | (advance << 4));
                }
            }
            for (int entry = first; entry < last; entry++) {
                table->plain[entry] = plain;
                table->skip[entry] = skip;
            }
        }
        table->maxcode[length] = n ? code - 1 : -1;
        code <<= 1;
    }
    if (is_ac) {
        pair_skips(table->skip);
    }
    table->defined = 1;
    return 1;
}

// Tops the reader up to more than 56 bits a byte at a time. A marker or the end of the data is
// not consumed: zeros stand in for it, counted in `pad`.
static void fill_bytewise(bit_reader *reader) {
    while (reader->n <= 56) {
        unsigned byte = 0;
        if (reader->p < reader->end && reader->p[0] != 0xFF) {
            byte = *reader->p++;
        } else if (reader->end - reader->p >= 2 && reader->p[1] == 0x00) {
            byte = 0xFF;
            reader->p += 2;
        } else {
            reader->pad += 8;
        }
        reader->acc |= (uint64_t)byte << (56 - reader->n);
        reader->n += 8;
    }
}

// Tops the reader up to more than 56 bits.
static inline void fill(bit_reader *reader) {
    if (reader->end - reader->p >= 8) {
        // As many whole bytes as fit, at once, when none of them is 0xFF (a stuffed byte or a
        // marker): a zero byte in the complement is one of those.
        uint64_t word;
        memcpy(&word, reader->p, sizeof word);
        word = __builtin_bswap64(word);
        int count = (64 - reader->n) >> 3;
        uint64_t taken = count == 8 ? ~(uint64_t)0 : ~((~(uint64_t)0) >> (8 * count));
        uint64_t inverse = ~word;
        uint64_t ff_bytes = (inverse - 0x0101010101010101u) & ~inverse & 0x8080808080808080u;
        if (!(ff_bytes & taken)) {
            reader->acc |= (word & taken) >> reader->n;
            reader->n += 8 * count;
            reader->p += count;
            return;
        }
    }
    fill_bytewise(reader);
}

static inline void consume(bit_reader *reader, int bits) {
    reader->acc <<= bits;
    reader->n -= bits;
}

// The next Huffman symbol, or -1 for a code the table does not have. Needs 16 bits in hand.
static int decode_symbol(bit_reader *reader, const huffman_table *table) {
    unsigned entry = table->plain[reader->acc >> (64 - LOOKAHEAD)];
    if (entry) {
        consume(reader, (int)(entry >> 8));
        return (int)(entry & 0xFF);
    }
    for (int length = LOOKAHEAD + 1; length <= 16; length++) {
        int32_t code = (int32_t)(reader->acc >> (64 - length));
        if (code <= table->maxcode[length]) {
            int index = code + table->valoffset[length];
            if (index < 0 || index >= table->count) {
                return -1;
            }
            consume(reader, length);
            return table->symbols[index];
        }
    }
    return -1;
}

// A coefficient's `size` magnitude bits as its signed value. Needs `size` (at most 15) bits.
static inline int32_t read_value(bit_reader *reader, int size) {
    if (!size) {
        return 0;
    }
    int32_t bits = (int32_t)(reader->acc >> (64 - size));
    consume(reader, size);
    return bits < (1 << (size - 1)) ? bits - ((1 << size) - 1) : bits;
}

static int16_t clamp16(int64_t value) {
    return (int16_t)(value > 32767 ? 32767 : value < -32768 ? -32768 : value);
}

// Decodes a block's DC coefficient into `dc_value`; 0 on a bad code.
static int decode_dc(bit_reader *reader, component *c, const huffman_table *dc, int *dc_value) {
    if (reader->n < 32) {
        fill(reader);
    }
    int magnitude = decode_symbol(reader, dc);
    if (magnitude < 0 || magnitude > 15) {
        return 0;
    }
    c->predictor += read_value(reader, magnitude);
    *dc_value = clamp16(c->predictor);
    return 1;
}

// The next AC symbol, split into its run of zeros and its magnitude size; 0 on a bad code.
static inline int next_ac_symbol(bit_reader *reader, const huffman_table *ac, int *run, int *size) {
    if (reader->n < 32) {
        fill(reader);
    }
    int symbol = decode_symbol(reader, ac);
    if (symbol < 0) {
        return 0;
    }
    *run = symbol >> 4;
    *size = symbol & 15;
    return 1;
}

// Decodes one block's DC coefficient and passes over its AC coefficients. 0 on a bad code.
static int decode_block(bit_reader *reader, component *c, const huffman_table *dc, const huffman_table *ac,
                        int *dc_value) {
    if (!decode_dc(reader, c, dc, dc_value)) {
        return 0;
    }
    // The bits in hand live in locals here, so that each step waits only on the table lookup.
    uint64_t acc = reader->acc;
    int n = reader->n;
    for (int k = 1; k < 64;) {
        // The table needs LOOKAHEAD bits; topping up only then takes more bytes each time.
        if (n < LOOKAHEAD) {
            reader->acc = acc;
            reader->n = n;
            fill(reader);
            acc = reader->acc;
            n = reader->n;
        }
        uint32_t entry = ac->skip[acc >> (64 - LOOKAHEAD)];
        if (entry) {
            // Both coefficients when the first leaves the block open, else the first alone.
            int bits;
            if (k + (int)((entry >> 4) & 127) < 64) {
                bits = (int)((entry >> 11) & 31);
                k += (int)(entry >> 16);
            } else {
                bits = (int)(entry & 15);
                k += (int)((entry >> 4) & 127);
            }
            acc <<= bits;
            n -= bits;
            continue;
        }
        reader->acc = acc;
        reader->n = n;
        int run, size;
        if (!next_ac_symbol(reader, ac, &run, &size)) {
            return 0;
        }
        if (size) {
            consume(reader, size);
            k += run + 1;
        } else if (run == 15) {
            k += 16;
        } else {
            k = 64;
        }
        acc = reader->acc;
        n = reader->n;
    }
    reader->acc = acc;
    reader->n = n;
    return reader->n >= reader->pad;
}

// Decodes one block into the means of its four quadrants (before the level shift), reading the
// values of the coefficients they depend on. 0 on a bad code.
static int decode_quadrants(bit_reader *reader, component *c, const huffman_table *dc,
                            const huffman_table *ac, const uint16_t quant[64], const float weights[64][4],
                            float means[4]) {
    int dc_value;
    if (!decode_dc(reader, c, dc, &dc_value)) {
        return 0;
    }
    float value = (float)dc_value * quant[0];
    for (int quadrant = 0; quadrant < 4; quadrant++) {
        means[quadrant] = value * weights[0][quadrant];
    }
    // A run that passes the end of the block lands on the last coefficient, as libjpeg puts
    // it; the last value written there is the one it keeps.
    int32_t last = 0;
    for (int k = 1; k < 64;) {
        int run, size;
        if (!next_ac_symbol(reader, ac, &run, &size)) {
            return 0;
        }
        if (!size) {
            if (run != 15) {
                break;
            }
            k += 16;
            continue;
        }
        k += run;
        int32_t coefficient = read_value(reader, size);
        if (k >= 63) {
            last = coefficient;
        } else if (weights[k][0] != 0) {
            value = (float)coefficient * quant[k];
            for (int quadrant = 0; quadrant < 4; quadrant++) {
                means[quadrant] += value * weights[k][quadrant];
            }
        }
        k++;
    }
    if (last && weights[63][0] != 0) {
        value = (float)last * quant[63];
        for (int quadrant = 0; quadrant < 4; quadrant++) {
            means[quadrant] += value * weights[63][quadrant];
        }
    }
    return reader->n >= reader->pad;
}

// Moves past 0xFF fill bytes and the marker `code`; 0 when something else is there.
static int expect_marker(bit_reader *reader, int code) {
    const uint8_t *p = reader->p;
    while (reader->end - p >= 2 && p[0] == 0xFF && p[1] == 0xFF) {
        p++;
    }
    if (reader->end - p < 2 || p[0] != 0xFF || p[1] != code) {
        return 0;
    }
    reader->p = p + 2;
    reader->acc = 0;
    reader->n = 0;
    reader->pad = 0;
    return 1;
}

static int clamp_sample(int value) { return value < 0 ? 0 : value > 255 ? 255 : value; }

// Whether a level an inverse DCT gives could come from an 8-bit image, with room for rounding.
// Only damaged data goes further; libjpeg wraps such levels around rather than clamping them, so
// the decoder leaves those files to it, and a thumbnail is what libjpeg makes of the same bytes.
static int is_plausible_level(float level) { return level >= -64 && level <= 320; }

// The 1x1 inverse DCT of a block whose DC coefficient is `dc` and quantizer `quant`, as a
// sample; 0 when the coefficient is one no 8-bit image has.
static int dc_sample(int dc, int quant, uint8_t *sample) {
    int64_t level = ((((int64_t)dc * quant) + 4) >> 3) + 128;
    if (!is_plausible_level((float)level)) {
        return 0;
    }
    *sample = (uint8_t)clamp_sample((int)level);
    return 1;
}

static uint8_t mean_sample(float mean) {
    float level = mean + 128;
    return level <= 0 ? 0 : level >= 255 ? 255 : (uint8_t)lrintf(level);
}

// Moves past restart marker number `count` and starts afresh: no prediction, no run of
// end-of-bands. 0 when the marker is not there.
static int restart(frame *f, bit_reader *reader, int count) {
    if (!expect_marker(reader, 0xD0 + (count & 7))) {
        return 0;
    }
    f->eobrun = 0;
    for (int i = 0; i < f->component_count; i++) {
        f->components[i].predictor = 0;
    }
    return 1;
}

// Writes a block's four quadrant means as its 2x2 samples at column `block` of `row`; 0 when a
// mean is one no 8-bit image has.
static int write_quadrants(uint8_t *row, size_t stride, int block, const float means[4]) {
    for (int quadrant = 0; quadrant < 4; quadrant++) {
        if (!is_plausible_level(means[quadrant] + 128)) {
            return 0;
        }
    }
    row[2 * block] = mean_sample(means[0]);
    row[2 * block + 1] = mean_sample(means[1]);
    row[stride + 2 * block] = mean_sample(means[2]);
    row[stride + 2 * block + 1] = mean_sample(means[3]);
    return 1;
}

// Lays out the frame's MCUs and allocates each component's samples (and, for a progressive
// frame, its coefficients). 0 when out of memory.
static int allocate_components(frame *f) {
    if (f->component_count == 1) {
        f->mcus_wide = (f->width + 7) / 8;
        f->mcus_high = (f->height + 7) / 8;
    } else {
        f->mcus_wide = (f->width + 8 * f->h_max - 1) / (8 * f->h_max);
        f->mcus_high = (f->height + 8 * f->v_max - 1) / (8 * f->v_max);
    }
    for (int i = 0; i < f->component_count; i++) {
        component *c = &f->components[i];
        int h = f->component_count == 1 ? 1 : c->h;
        int v = f->component_count == 1 ? 1 : c->v;
        c->blocks_wide = f->mcus_wide * h;
        c->blocks_high = f->mcus_high * v;
        size_t blocks = (size_t)c->blocks_wide * (size_t)c->blocks_high;
        c->samples = malloc(blocks * (size_t)(c->scale * c->scale));
        if (c->samples == NULL) {
            return 0;
        }
        if (f->progressive) {
            c->coefficients_per_block = c->scale == 2 ? 64 : 1;
            c->coefficients = calloc(blocks * (size_t)c->coefficients_per_block, sizeof(int16_t));
            if (c->coefficients == NULL) {
                return 0;
            }
        }
    }
    return 1;
}

static int decode_scan(frame *f, bit_reader *reader) {
    int mcus_wide = f->mcus_wide;
    long total = (long)mcus_wide * f->mcus_high;
    int restarts = 0;
    for (long mcu = 0; mcu < total; mcu++) {
        int mcu_x = (int)(mcu % mcus_wide);
        int mcu_y = (int)(mcu / mcus_wide);
        for (int s = 0; s < f->component_count; s++) {
            component *c = &f->components[f->scan_order[s]];
            int h = f->component_count == 1 ? 1 : c->h;
            int v = f->component_count == 1 ? 1 : c->v;
            const uint16_t *quant = f->quant[c->quant];
            const huffman_table *dc_table = &f->dc[c->dc_table];
            const huffman_table *ac_table = &f->ac[c->ac_table];
            size_t stride = (size_t)c->blocks_wide * (size_t)c->scale;
            for (int by = 0; by < v; by++) {
                uint8_t *row = c->samples + (size_t)(mcu_y * v + by) * (size_t)c->scale * stride;
                for (int bx = 0; bx < h; bx++) {
                    int block = mcu_x * h + bx;
                    if (c->scale == 1) {
                        int dc;
                        if (!decode_block(reader, c, dc_table, ac_table, &dc) ||
                            !dc_sample(dc, quant[0], &row[block])) {
                            return 0;
                        }
                    } else {
                        float means[4];
                        if (!decode_quadrants(reader, c, dc_table, ac_table, quant, f->quadrant_weights,
                                              means) ||
                            !write_quadrants(row, stride, block, means)) {
                            return 0;
                        }
                    }
                }
            }
        }
        if (f->restart_interval && (mcu + 1) % f->restart_interval == 0 && mcu + 1 < total &&
            !restart(f, reader, restarts++)) {
            return 0;
        }
    }
    return expect_marker(reader, 0xD9);
}

static inline int read_bit(bit_reader *reader) {
    if (reader->n < 1) {
        fill(reader);
    }
    int bit = (int)(reader->acc >> 63);
    consume(reader, 1);
    return bit;
}

// `count` (at most 16) bits as an unsigned number.
static inline int read_bits(bit_reader *reader, int count) {
    if (!count) {
        return 0;
    }
    if (reader->n < count) {
        fill(reader);
    }
    int bits = (int)(reader->acc >> (64 - count));
    consume(reader, count);
    return bits;
}

// Reads or refines one block's DC coefficient in a progressive DC scan. 0 on a bad code.
static int decode_progressive_dc(frame *f, bit_reader *reader, component *c, int16_t *block) {
    if (f->ah == 0) {
        int dc;
        if (!decode_dc(reader, c, &f->dc[c->dc_table], &dc)) {
            return 0;
        }
        block[0] = clamp16(dc * (1 << f->al));
    } else if (read_bit(reader)) {
        // A refinement: the next lower bit of each coefficient, one bit per block.
        block[0] = (int16_t)((uint16_t)block[0] | (1u << f->al));
    }
    return 1;
}

// The first pass over a band of a block's AC coefficients: runs of zeros, values and runs of
// blocks with nothing left in the band. 0 on a bad code.
static int decode_ac_first(frame *f, bit_reader *reader, const huffman_table *ac, int16_t *block) {
    if (f->eobrun > 0) {
        f->eobrun--;
        return 1;
    }
    for (int k = f->ss; k <= f->se; k++) {
        int run, size;
        if (!next_ac_symbol(reader, ac, &run, &size)) {
            return 0;
        }
        if (size) {
            k += run;
            if (k > f->se) {
                return 0;
            }
            block[k] = clamp16(read_value(reader, size) * (1 << f->al));
        } else if (run == 15) {
            k += 15;
        } else {
            f->eobrun = (1 << run) - 1 + read_bits(reader, run);
            break;
        }
    }
    return 1;
}

// A coefficient that is already nonzero gets its next bit when the data says so.
static void refine(bit_reader *reader, int16_t *coefficient, int bit) {
    if (read_bit(reader) && !(*coefficient & bit)) {
        *coefficient = (int16_t)(*coefficient >= 0 ? *coefficient + bit : *coefficient - bit);
    }
}

// A refining pass over a band: a correction bit for each coefficient already nonzero, and new
// coefficients of plus or minus the bit being added, placed by runs counted over those still
// zero. 0 on a bad code.
static int decode_ac_refine(frame *f, bit_reader *reader, const huffman_table *ac, int16_t *block) {
    int bit = 1 << f->al;
    int k = f->ss;
    if (f->eobrun == 0) {
        for (; k <= f->se; k++) {
            int run, size;
            if (!next_ac_symbol(reader, ac, &run, &size) || size > 1) {
                return 0;
            }
            int value = 0;
            if (size) {
                value = read_bit(reader) ? bit : -bit;
            } else if (run != 15) {
                f->eobrun = (1 << run) + read_bits(reader, run);
                break;
            }
            // Past `run` coefficients still zero, refining the nonzero ones on the way.
            for (; k <= f->se; k++) {
                if (block[k]) {
                    refine(reader, &block[k], bit);
                } else if (--run < 0) {
                    break;
                }
            }
            if (value) {
                if (k > f->se) {
                    return 0;
                }
                block[k] = (int16_t)value;
            }
        }
    }
    if (f->eobrun > 0) {
        for (; k <= f->se; k++) {
            if (block[k]) {
                refine(reader, &block[k], bit);
            }
        }
        f->eobrun--;
    }
    return 1;
}

// A progressive scan over the components it names: interleaved MCUs for several, each block
// alone (over the component's own size, not whole MCUs) for one. DC scans are decoded, and AC
// scans of components whose quadrant means need them; other AC scans are skipped before this.
static int decode_progressive_scan(frame *f, bit_reader *reader) {
    int mcus_wide = f->mcus_wide;
    int mcus_high = f->mcus_high;
    if (f->scan_count == 1) {
        const component *c = &f->components[f->scan_order[0]];
        int samples_wide = (f->width * c->h + f->h_max - 1) / f->h_max;
        int samples_high = (f->height * c->v + f->v_max - 1) / f->v_max;
        mcus_wide = (samples_wide + 7) / 8;
        mcus_high = (samples_high + 7) / 8;
    }
    long total = (long)mcus_wide * mcus_high;
    int restarts = 0;
    f->eobrun = 0;
    for (long mcu = 0; mcu < total; mcu++) {
        int mcu_x = (int)(mcu % mcus_wide);
        int mcu_y = (int)(mcu / mcus_wide);
        for (int s = 0; s < f->scan_count; s++) {
            component *c = &f->components[f->scan_order[s]];
            const huffman_table *ac = &f->ac[c->ac_table];
            int h = f->scan_count == 1 ? 1 : c->h;
            int v = f->scan_count == 1 ? 1 : c->v;
            for (int by = 0; by < v; by++) {
                size_t row = (size_t)(mcu_y * v + by) * (size_t)c->blocks_wide;
                for (int bx = 0; bx < h; bx++) {
                    size_t index = row + (size_t)(mcu_x * h + bx);
                    int16_t *block = c->coefficients + index * (size_t)c->coefficients_per_block;
                    int ok = f->ss == 0  ? decode_progressive_dc(f, reader, c, block)
                             : f->ah == 0 ? decode_ac_first(f, reader, ac, block)
                                          : decode_ac_refine(f, reader, ac, block);
                    if (!ok) {
                        return 0;
                    }
                }
            }
        }
        if (reader->n < reader->pad) {
            return 0;
        }
        if (f->restart_interval && (mcu + 1) % f->restart_interval == 0 && mcu + 1 < total &&
            !restart(f, reader, restarts++)) {
            return 0;
        }
    }
    for (int s = 0; s < f->scan_count && f->ss == 0; s++) {
        f->components[f->scan_order[s]].dc_shift = f->al;
    }
    return 1;
}

// The marker that ends the entropy-coded data at `p` (restart markers are part of it), or NULL
// when the data runs out first.
static const uint8_t *skip_entropy_data(const uint8_t *p, const uint8_t *end) {
    while (p < end) {
        const uint8_t *mark = memchr(p, 0xFF, (size_t)(end - p));
        if (mark == NULL || end - mark < 2) {
            return NULL;
        }
        int code = mark[1];
        if (code != 0x00 && code != 0xFF && (code < 0xD0 || code > 0xD7)) {
            return mark;
        }
        p = mark + (code == 0xFF ? 1 : 2);
    }
    return NULL;
}

// A progressive frame's samples from its coefficients, once every component has its DC.
static int finish_progressive(frame *f) {
    for (int i = 0; i < f->component_count; i++) {
        component *c = &f->components[i];
        if (c->dc_shift < 0) {
            return 0;
        }
        for (int k = 0; k < 10; k++) {
            if (c->low_bits[k] != 0) {
                return 0;
            }
        }
        const uint16_t *quant = f->quant[c->quant];
        size_t stride = (size_t)c->blocks_wide * (size_t)c->scale;
        for (int y = 0; y < c->blocks_high; y++) {
            uint8_t *row = c->samples + (size_t)y * (size_t)c->scale * stride;
            for (int x = 0; x < c->blocks_wide; x++) {
                size_t index = (size_t)y * (size_t)c->blocks_wide + (size_t)x;
                const int16_t *block = c->coefficients + index * (size_t)c->coefficients_per_block;
                if (c->scale == 1) {
                    if (!dc_sample(block[0], quant[0], &row[x])) {
                        return 0;
                    }
                    continue;
                }
                float means[4] = {0, 0, 0, 0};
                for (int k = 0; k < 64; k++) {
                    if (block[k] && f->quadrant_weights[k][0] != 0) {
                        float value = (float)block[k] * quant[k];
                        for (int quadrant = 0; quadrant < 4; quadrant++) {
                            means[quadrant] += value * f->quadrant_weights[k][quadrant];
                        }
                    }
                }
                if (!write_quadrants(row, stride, x, means)) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

// YCbCr to RGB as JFIF defines it, in the fixed point libjpeg uses.
static void write_pixels(const frame *f, uint8_t *pixels, int width, int height) {
    enum { SCALE = 16 };
    const int32_t half = 1 << (SCALE - 1);
    const int32_t cr_r = 91881, cb_g = -22554, cr_g = -46802, cb_b = 116130;
    const component *y_c = &f->components[0];
    for (int y = 0; y < height; y++) {
        uint8_t *out = pixels + (size_t)y * (size_t)width * 4;
        const uint8_t *luma = y_c->samples + (size_t)y * (size_t)y_c->blocks_wide;
        if (f->component_count == 1) {
            for (int x = 0; x < width; x++, out += 4) {
                out[0] = out[1] = out[2] = luma[x];
                out[3] = 255;
            }
            continue;
        }
        const component *cb_c = &f->components[1];
        const component *cr_c = &f->components[2];
        const uint8_t *cb_row = cb_c->samples + (size_t)(y * cb_c->v * cb_c->scale / f->v_max) *
                                                    (size_t)(cb_c->blocks_wide * cb_c->scale);
        const uint8_t *cr_row = cr_c->samples + (size_t)(y * cr_c->v * cr_c->scale / f->v_max) *
                                                    (size_t)(cr_c->blocks_wide * cr_c->scale);
        int cb_step = f->h_max / (cb_c->h * cb_c->scale);
        int cr_step = f->h_max / (cr_c->h * cr_c->scale);
        for (int x = 0; x < width; x++, out += 4) {
            int32_t lum = luma[x];
            int32_t cb = cb_row[x / cb_step] - 128;
            int32_t cr = cr_row[x / cr_step] - 128;
            out[0] = (uint8_t)clamp_sample(lum + ((cr_r * cr + half) >> SCALE));
            out[1] = (uint8_t)clamp_sample(lum + ((cb_g * cb + cr_g * cr + half) >> SCALE));
            out[2] = (uint8_t)clamp_sample(lum + ((cb_b * cb + half) >> SCALE));
            out[3] = 255;
        }
    }
}

static int read_dht(frame *f, const uint8_t *p, int length) {
    while (length > 0) {
        if (length < 17) {
            return 0;
        }
        int class = p[0] >> 4;
        int id = p[0] & 15;
        if (class > 1 || id > 3) {
            return 0;
        }
        int count = 0;
        for (int i = 0; i < 16; i++) {
            count += p[1 + i];
        }
        if (count > 256 || 17 + count > length) {
            return 0;
        }
        // A DC symbol is a magnitude: libjpeg refuses tables with one over 15.
        for (int i = 0; i < count && !class; i++) {
            if (p[17 + i] > 15) {
                return 0;
            }
        }
        huffman_table *table = class ? &f->ac[id] : &f->dc[id];
        if (!build_table(table, p + 1, p + 17, count, class)) {
            return 0;
        }
        p += 17 + count;
        length -= 17 + count;
    }
    return 1;
}

static int read_dqt(frame *f, const uint8_t *p, int length) {
    while (length > 0) {
        int precision = p[0] >> 4;
        int id = p[0] & 15;
        int size = 1 + 64 * (precision ? 2 : 1);
        if (precision > 1 || id > 3 || length < size) {
            return 0;
        }
        for (int k = 0; k < 64; k++) {
            f->quant[id][k] = (uint16_t)(precision ? read16(p + 1 + 2 * k) : p[1 + k]);
        }
        f->quant_defined[id] = 1;
        p += size;
        length -= size;
    }
    return 1;
}

static int read_sof(frame *f, const uint8_t *p, int length, int progressive) {
    if (f->component_count || length < 6 || p[0] != 8) {
        return 0;
    }
    f->progressive = progressive;
    f->height = read16(p + 1);
    f->width = read16(p + 3);
    int count = p[5];
    if (f->width == 0 || f->height == 0 || (count != 1 && count != 3) || length != 6 + 3 * count) {
        return 0;
    }
    f->component_count = count;
    for (int i = 0; i < count; i++) {
        component *c = &f->components[i];
        c->scale = 1;
        c->dc_shift = -1;
        for (int k = 0; k < 10; k++) {
            c->low_bits[k] = -1;
        }
        c->id = p[6 + 3 * i];
        c->h = p[7 + 3 * i] >> 4;
        c->v = p[7 + 3 * i] & 15;
        c->quant = p[8 + 3 * i];
        if (c->h < 1 || c->h > 4 || c->v < 1 || c->v > 4 || c->quant > 3) {
            return 0;
        }
        for (int j = 0; j < i; j++) {
            if (f->components[j].id == c->id) {
                return 0;
            }
        }
        f->h_max = c->h > f->h_max ? c->h : f->h_max;
        f->v_max = c->v > f->v_max ? c->v : f->v_max;
    }
    if (count == 3) {
        // Components named R, G, B are RGB to libjpeg, not YCbCr.
        if (f->components[0].id == 'R' && f->components[1].id == 'G' && f->components[2].id == 'B') {
            return 0;
        }
        // Luma must be the full-resolution component, and chroma an integral fraction of it.
        if (f->components[0].h != f->h_max || f->components[0].v != f->v_max) {
            return 0;
        }
        // Chroma at half the luma resolution both ways gets its quadrants' means (libjpeg's 2x2
        // inverse DCT); at half in one direction, or full, its blocks' means.
        int blocks = 0;
        for (int i = 0; i < count; i++) {
            component *c = &f->components[i];
            if (f->h_max % c->h || f->v_max % c->v || f->h_max / c->h > 2 || f->v_max / c->v > 2) {
                return 0;
            }
            c->scale = f->h_max / c->h == 2 && f->v_max / c->v == 2 ? 2 : 1;
            blocks += c->h * c->v;
        }
        if (blocks > MAX_BLOCKS_IN_MCU) {
            return 0;
        }
    }
    return 1;
}

static int read_sos(frame *f, const uint8_t *p, int length) {
    if (!f->component_count || length < 1) {
        return 0;
    }
    int count = p[0];
    if (count < 1 || count > f->component_count || length != 4 + 2 * count) {
        return 0;
    }
    const uint8_t *tail = p + 1 + 2 * count;
    f->scan_count = count;
    f->ss = tail[0];
    f->se = tail[1];
    f->ah = tail[2] >> 4;
    f->al = tail[2] & 15;
    int dc = f->ss == 0;
    if (!f->progressive) {
        // Sequential: every component, the whole spectrum, no successive approximation.
        if (count != f->component_count || f->ss != 0 || f->se != 63 || f->ah || f->al) {
            return 0;
        }
    } else if (f->al > 13 || (f->ah && f->al != f->ah - 1) || (dc && f->se) ||
               (!dc && (f->se < f->ss || f->se > 63 || count != 1))) {
        // What libjpeg calls a bad progression: it refuses the file.
        return 0;
    }
    int seen = 0;
    for (int s = 0; s < count; s++) {
        int id = p[1 + 2 * s];
        int index = -1;
        for (int i = 0; i < f->component_count; i++) {
            if (f->components[i].id == id && !(seen & (1 << i))) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            return 0;
        }
        seen |= 1 << index;
        component *c = &f->components[index];
        c->dc_table = p[2 + 2 * s] >> 4;
        c->ac_table = p[2 + 2 * s] & 15;
        // The tables the scan decodes with: both for a sequential scan, the DC one for a first
        // DC scan, the AC one for any AC scan, none for a DC refinement.
        int needs_dc = !f->progressive || (dc && !f->ah);
        int needs_ac = !f->progressive || !dc;
        if (c->dc_table > 3 || c->ac_table > 3 || (needs_dc && !f->dc[c->dc_table].defined) ||
            (needs_ac && !f->ac[c->ac_table].defined) || !f->quant_defined[c->quant]) {
            return 0;
        }
        // A refinement must follow the component's previous DC scan bit for bit.
        if (f->progressive && dc && (f->ah ? c->dc_shift != f->ah : c->dc_shift != -1)) {
            return 0;
        }
        f->scan_order[s] = index;
        for (int k = f->ss; k <= f->se && k < 10; k++) {
            c->low_bits[k] = f->al;
        }
    }
    return 1;
}

int tic_jpeg_decode_dc_rgba(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height,
                            int max_scans) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) {
        return 0;
    }
    frame *f = calloc(1, sizeof(frame));
    if (f == NULL) {
        return 0;
    }
    int result = 0;
    compute_quadrant_weights(f->quadrant_weights);
    f->max_scans = max_scans;
    const uint8_t *p = data + 2;
    const uint8_t *end = data + size;
    for (;;) {
        while (end - p >= 2 && p[0] == 0xFF && p[1] == 0xFF) {
            p++;
        }
        if (end - p < 2 || p[0] != 0xFF) {
            goto done;
        }
        int marker = p[1];
        if (marker == 0xD9) {
            // The end of a progressive image (a sequential one ends with its scan).
            if (f->progressive && f->scans && finish_progressive(f)) {
                write_pixels(f, pixels, width, height);
                result = 1;
            }
            goto done;
        }
        if (end - p < 4) {
            goto done;
        }
        int length = read16(p + 2) - 2;
        const uint8_t *body = p + 4;
        if (length < 0 || end - body < length) {
            goto done;
        }
        p = body + length;
        int ok;
        switch (marker) {
        case 0xC0:
        case 0xC1:
        case 0xC2:
            ok = read_sof(f, body, length, marker == 0xC2);
            break;
        case 0xC4:
            ok = read_dht(f, body, length);
            break;
        case 0xDB:
            // libjpeg holds each component to the quantizer it had at its first scan; tables
            // redefined after a scan are left to it.
            ok = !f->scans && read_dqt(f, body, length);
            break;
        case 0xDD:
            ok = length == 2;
            f->restart_interval = ok ? read16(body) : 0;
            break;
        case 0xEE:
            // Adobe's segment may declare RGB, or a transform libjpeg warns about: its call.
            ok = !(length >= 5 && memcmp(body, "Adobe", 5) == 0);
            break;
        case 0xDA: {
            // Past its scan limit libjpeg refuses the file.
            if (!read_sos(f, body, length) || ++f->scans > f->max_scans) {
                goto done;
            }
            if (f->scans == 1) {
                if ((f->width + 7) / 8 != width || (f->height + 7) / 8 != height ||
                    !allocate_components(f)) {
                    goto done;
                }
            }
            bit_reader reader = {.p = p, .end = end};
            if (!f->progressive) {
                if (decode_scan(f, &reader)) {
                    write_pixels(f, pixels, width, height);
                    result = 1;
                }
                goto done;
            }
            if (f->ss == 0 || f->components[f->scan_order[0]].scale == 2) {
                ok = decode_progressive_scan(f, &reader);
                p = reader.p;
            } else {
                // An AC scan adds nothing to a block's mean.
                p = skip_entropy_data(p, end);
                ok = p != NULL;
            }
            break;
        }
        default:
            // Application segments and comments carry nothing the decode needs; any other
            // marker (another frame type, DNL, ...) is libjpeg's to handle.
            ok = (marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE;
            break;
        }
        if (!ok) {
            goto done;
        }
    }
done:
    for (int i = 0; i < MAX_COMPONENTS; i++) {
        free(f->components[i].samples);
        free(f->components[i].coefficients);
    }
    free(f);
    return result;
}
