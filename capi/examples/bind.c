/*
 * bind.c: the shaderlift C API end to end. For each CAPTURE DRAWS.json pair,
 * load and trace the shader, build its bind plan once, then bind every draw
 * of the DRAWS.json file and print the ranges exactly as
 * `shaderlift bind CAPTURE --draws DRAWS.json` prints them.
 *
 *   cc -I capi/include capi/examples/bind.c target/release/libshaderlift_capi.a -lm -lpthread -ldl -o bind
 *   ./bind corpus/radv/cube translator/tests/draws/cube.json \
 *          corpus/radv/instanced translator/tests/draws/instanced.json
 *
 * Guest memory comes from the DRAWS.json file through shaderlift_draws_read;
 * an emulator passes its own shaderlift_read_fn and context instead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shaderlift.h"

#define MAX_RANGES 64

static int fail(const char *what, shaderlift_status s) {
    fprintf(stderr, "bind: %s: %s: %s\n", what, shaderlift_error_text(s), shaderlift_last_error());
    return 1;
}

/* The draw as `shaderlift bind` describes it. */
static void describe(const shaderlift_draw *d, char *buf, size_t cap) {
    if (d->kind == SHADERLIFT_DRAW_KIND_INDEXED) {
        snprintf(buf, cap, "indexed: %" PRIu32 " indices, instances %" PRIu32, d->index_count,
                 d->instance_count);
        return;
    }
    int n = snprintf(buf, cap, "auto: vertices %" PRIu32 "+%" PRIu32 ", instances %" PRIu32,
                     d->first_vertex, d->vertex_count, d->instance_count);
    for (size_t i = 0; i < d->chunk_count && n > 0 && (size_t)n < cap; i++) {
        n += snprintf(buf + n, cap - (size_t)n, "%s%" PRIu32 "+%" PRIu32, i == 0 ? ", chunks " : " ",
                      d->chunks[i].first, d->chunks[i].count);
    }
}

static int bind_file(const char *capture, const char *draws_path) {
    shaderlift_shader *shader = NULL;
    shaderlift_plan *plan = NULL;
    shaderlift_draws *draws = NULL;
    int rc = 1;
    shaderlift_status s = shaderlift_shader_open(capture, &shader);
    if (s != SHADERLIFT_STATUS_OK) {
        rc = fail(capture, s);
        goto out;
    }
    s = shaderlift_draws_load(draws_path, &draws);
    if (s != SHADERLIFT_STATUS_OK) {
        rc = fail(draws_path, s);
        goto out;
    }
    s = shaderlift_plan_new(shader, &plan);
    if (s != SHADERLIFT_STATUS_OK) {
        rc = fail(capture, s);
        goto out;
    }

    size_t user_data_count = 0;
    const uint32_t *user_data = shaderlift_draws_user_data(draws, &user_data_count);
    shaderlift_range ranges[MAX_RANGES];
    for (size_t i = 0; i < shaderlift_draws_count(draws); i++) {
        const shaderlift_draw *draw = shaderlift_draws_get(draws, i);
        size_t n = 0;
        s = shaderlift_bind(plan, draw, user_data, user_data_count, shaderlift_draws_read, draws,
                            ranges, MAX_RANGES, &n);
        if (s != SHADERLIFT_STATUS_OK) {
            char what[64];
            snprintf(what, sizeof what, "draw %zu", i);
            rc = fail(what, s);
            goto out;
        }
        char text[512];
        describe(draw, text, sizeof text);
        printf("draw %zu (%s)\n", i, text);
        for (size_t r = 0; r < n; r++) {
            const shaderlift_range *range = &ranges[r];
            const char *source = shaderlift_plan_descriptor_source(plan, range->descriptor);
            char unknown[32];
            if (source == NULL) {
                snprintf(unknown, sizeof unknown, "descriptor %" PRIu32, range->descriptor);
                source = unknown;
            }
            char base[24];
            snprintf(base, sizeof base, "0x%" PRIx64, range->base);
            /* The CLI pads the source and base only (the size is unpadded). */
            printf("  %-20s base %16s  size %" PRIu64 "  %-9s %s\n", source, base, range->size,
                   range->narrowed ? "narrowed" : "baseline", shaderlift_reason_text(range->reason));
        }
    }
    rc = 0;
out:
    shaderlift_plan_free(plan);
    shaderlift_draws_free(draws);
    shaderlift_shader_free(shader);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc % 2 != 1) {
        fprintf(stderr, "usage: %s CAPTURE DRAWS.json [CAPTURE DRAWS.json ...]\n", argv[0]);
        return 2;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        if (bind_file(argv[i], argv[i + 1]) != 0) {
            return 1;
        }
    }
    return 0;
}
