/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_npy.c - .npy load and save: every dtype round trips, files laid out
 * byte for byte as np.save writes them load and are written back
 * identically, and every damaged or unsupported file fails naming why.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* A .npy file with the given version and header dict, padded the way
 * NumPy pads (spaces to a 64-byte boundary, then a newline), then data. */
static void write_npy(const char *path, int major, const char *dict,
                      const void *data, size_t n)
{
    size_t pre = major == 1 ? 10 : 12, len = strlen(dict) + 1;
    size_t pad = 64 - (pre + len) % 64, hlen = len + pad;
    unsigned char *buf = malloc(pre + hlen + n);
    ASSERT(buf != NULL);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t i = 8; i < pre; i++)
        buf[i] = (unsigned char)(hlen >> (8 * (i - 8)));
    memcpy(buf + pre, dict, len - 1);
    memset(buf + pre + len - 1, ' ', pad);
    buf[pre + hlen - 1] = '\n';
    if (n)
        memcpy(buf + pre + hlen, data, n);
    test_spit(path, buf, pre + hlen + n);
    free(buf);
}

static char path_buf[512];

static const char *tmp_path(const char *dir, const char *name)
{
    snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
    return path_buf;
}

static void round_trip(const char *dir, iron_dtype dt, iron_shape sh)
{
    iron_tensor *t = NULL, *u = NULL;
    if (dt == IRON_FLOAT32 || dt == IRON_FLOAT64 || dt == IRON_BFLOAT16)
        ASSERT_OK(iron_tensor_rand(dt, sh, 7, &t));
    else
        t = test_arange_shape(dt, sh, 1, 3);
    const char *p = tmp_path(dir, "t.npy");
    ASSERT_OK(iron_tensor_save_npy(t, p));
    ASSERT_OK(iron_tensor_load_npy(p, &u));
    ASSERT_EQ(iron_tensor_dtype(u), dt);
    iron_shape su = iron_tensor_shape(u);
    ASSERT_EQ(su.ndim, sh.ndim);
    for (int k = 0; k < sh.ndim; k++)
        ASSERT_EQ(su.dims[k], sh.dims[k]);
    ASSERT_EQ(iron_tensor_nbytes(u), iron_tensor_nbytes(t));
    ASSERT(memcmp(iron_tensor_data(u), iron_tensor_data(t),
                  iron_tensor_nbytes(t)) == 0);
    iron_tensor_free(t);
    iron_tensor_free(u);
}

TEST(npy_round_trips_every_dtype)
{
    const char *dir = test_temp_dir("npy");
    for (int dt = 0; dt < IRON_DTYPE_COUNT_; dt++) {
        round_trip(dir, (iron_dtype)dt, IRON_SHAPE(1));
        round_trip(dir, (iron_dtype)dt, IRON_SHAPE(7));
        round_trip(dir, (iron_dtype)dt, IRON_SHAPE(2, 3, 1, 4));
        round_trip(dir, (iron_dtype)dt, IRON_SHAPE(1, 2, 1, 2, 1, 3));
    }
    /* Only the file remains: no temporaries. */
    ASSERT_EQ(test_count_files(dir), 1);
    test_remove_dir(dir);
}

/* np.save(np.array([1, 2, 3], dtype=np.int32)): 128 bytes of preamble
 * and header (room for the first axis to grow, spaces to 64 bytes, a
 * newline), then the data. */
static const char numpy_i4_header[] =
    "\x93NUMPY\x01\x00\x76\x00"
    "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }"
    "                                                            \n";

TEST(npy_reads_and_writes_numpy_bytes)
{
    const char *dir = test_temp_dir("npy");
    unsigned char file[256];
    size_t hl = sizeof numpy_i4_header - 1;
    ASSERT_EQ(hl, 128);
    memcpy(file, numpy_i4_header, hl);
    const int32_t v[3] = { 1, 2, -3 };
    memcpy(file + hl, v, sizeof v);   /* the test host is little-endian */
    char in[512];
    snprintf(in, sizeof in, "%s/in.npy", dir);
    test_spit(in, file, hl + sizeof v);

    iron_tensor *t = NULL;
    ASSERT_OK(iron_tensor_load_npy(in, &t));
    ASSERT_EQ(iron_tensor_dtype(t), IRON_INT32);
    ASSERT_EQ(iron_tensor_shape(t).ndim, 1);
    ASSERT_EQ(iron_tensor_shape(t).dims[0], 3);
    ASSERT_EQ(test_at(t, 2), -3);
    const char *out = tmp_path(dir, "out.npy");
    ASSERT_OK(iron_tensor_save_npy(t, out));
    size_t n;
    unsigned char *back = test_slurp(out, &n);
    ASSERT_EQ(n, hl + sizeof v);
    ASSERT(memcmp(back, file, n) == 0);
    free(back);
    iron_tensor_free(t);

    /* 2-D float32, and bfloat16 as ml_dtypes' arrays are saved ('<V2'). */
    static const char f4[] =
        "\x93NUMPY\x01\x00\x76\x00"
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
        "                                                          \n";
    static const char v2[] =
        "\x93NUMPY\x01\x00\x76\x00"
        "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }"
        "                                                            \n";
    t = test_arange_shape(IRON_FLOAT32, IRON_SHAPE(2, 3), 0.5, 1);
    ASSERT_OK(iron_tensor_save_npy(t, out));
    back = test_slurp(out, &n);
    ASSERT_EQ(n, 128 + 24);
    ASSERT(memcmp(back, f4, 128) == 0);
    ASSERT(memcmp(back + 128, iron_tensor_data(t), 24) == 0);
    free(back);
    iron_tensor_free(t);

    ASSERT_OK(iron_tensor_full(IRON_BFLOAT16, IRON_SHAPE(2), 1.0, &t));
    ASSERT_OK(iron_tensor_save_npy(t, out));
    back = test_slurp(out, &n);
    ASSERT_EQ(n, 128 + 4);
    ASSERT(memcmp(back, v2, 128) == 0);
    ASSERT_EQ(back[128], 0x80);   /* 1.0 is 0x3f80 */
    ASSERT_EQ(back[129], 0x3f);
    free(back);
    iron_tensor_free(t);
    ASSERT_OK(iron_tensor_load_npy(out, &t));
    ASSERT_EQ(iron_tensor_dtype(t), IRON_BFLOAT16);
    ASSERT_EQ(test_at(t, 1), 1.0);
    iron_tensor_free(t);

    /* The spelling a hand-written header may use. */
    const uint16_t two[2] = { 0x4000, 0x4040 };
    write_npy(in, 1, "{'descr': 'bfloat16', 'fortran_order': False, "
                     "'shape': (2,), }", two, sizeof two);
    ASSERT_OK(iron_tensor_load_npy(in, &t));
    ASSERT_EQ(iron_tensor_dtype(t), IRON_BFLOAT16);
    ASSERT_EQ(test_at(t, 0), 2.0);
    ASSERT_EQ(test_at(t, 1), 3.0);
    iron_tensor_free(t);
    test_remove_dir(dir);
}

TEST(npy_versions_zero_d_big_endian_fortran)
{
    const char *dir = test_temp_dir("npy");
    const char *p = tmp_path(dir, "x.npy");
    iron_tensor *t = NULL;
    const int32_t seven = 7;

    /* 0-d: one element, loaded as shape [1]. */
    write_npy(p, 1, "{'descr': '<i4', 'fortran_order': False, "
                    "'shape': (), }", &seven, 4);
    ASSERT_OK(iron_tensor_load_npy(p, &t));
    ASSERT_EQ(iron_tensor_shape(t).ndim, 1);
    ASSERT_EQ(iron_tensor_shape(t).dims[0], 1);
    ASSERT_EQ(test_at(t, 0), 7);
    iron_tensor_free(t);

    /* Versions 2.0 and 3.0 (4-byte header length), double quotes. */
    for (int major = 2; major <= 3; major++) {
        write_npy(p, major, "{\"descr\": \"<i4\", \"fortran_order\": False, "
                            "\"shape\": (1,)}", &seven, 4);
        ASSERT_OK(iron_tensor_load_npy(p, &t));
        ASSERT_EQ(test_at(t, 0), 7);
        iron_tensor_free(t);
    }

    /* Big-endian data is swapped. */
    const unsigned char be[8] = { 0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe };
    write_npy(p, 1, "{'descr': '>i4', 'fortran_order': False, "
                    "'shape': (2,), }", be, 8);
    ASSERT_OK(iron_tensor_load_npy(p, &t));
    ASSERT_EQ(test_at(t, 0), 258);
    ASSERT_EQ(test_at(t, 1), -2);
    iron_tensor_free(t);
    const unsigned char bef[8] = { 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d,
                                   0x18 };
    write_npy(p, 1, "{'descr': '>f8', 'fortran_order': False, "
                    "'shape': (1,), }", bef, 8);
    ASSERT_OK(iron_tensor_load_npy(p, &t));
    ASSERT_DBL_NEAR(test_at(t, 0), 3.141592653589793, 1e-15);
    iron_tensor_free(t);

    /* Fortran order: reordered to row-major. */
    const int16_t f[6] = { 0, 3, 1, 4, 2, 5 };  /* [[0,1,2],[3,4,5]] */
    write_npy(p, 1, "{'descr': '<i2', 'fortran_order': True, "
                    "'shape': (2, 3), }", f, sizeof f);
    ASSERT_OK(iron_tensor_load_npy(p, &t));
    for (int i = 0; i < 6; i++)
        ASSERT_EQ(test_at(t, i), i);
    iron_tensor_free(t);
    const int8_t f3[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };  /* 2x2x2 */
    write_npy(p, 1, "{'descr': '|i1', 'fortran_order': True, "
                    "'shape': (2, 2, 2), }", f3, sizeof f3);
    ASSERT_OK(iron_tensor_load_npy(p, &t));
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(test_at(t, i), i);
    iron_tensor_free(t);
    test_remove_dir(dir);
}

/* Loading `dict` + n data bytes fails with status and a message holding
 * needle (and the file's name). */
static void expect_bad(const char *p, const char *dict, size_t n,
                       iron_status status, const char *needle)
{
    static unsigned char zeros[4096];
    write_npy(p, 1, dict, zeros, n);
    iron_tensor *t = (iron_tensor *)1;
    ASSERT_STATUS(iron_tensor_load_npy(p, &t), status);
    ASSERT(t == NULL);
    ASSERT_MSG(needle);
    ASSERT_MSG(p);
}

TEST(npy_bad_files_fail_naming_why)
{
    const char *dir = test_temp_dir("npy");
    char p[512];
    snprintf(p, sizeof p, "%s/bad.npy", dir);
    iron_tensor *t = NULL;

    test_spit(p, "\x93NUM", 4);
    ASSERT_STATUS(iron_tensor_load_npy(p, &t), IRON_EIO);
    ASSERT_MSG("truncated file");
    test_spit(p, "", 0);
    ASSERT_STATUS(iron_tensor_load_npy(p, &t), IRON_EIO);
    ASSERT_MSG("truncated file");
    test_spit(p, "PK\x03\x04 not npy", 12);
    ASSERT_STATUS(iron_tensor_load_npy(p, &t), IRON_EINVAL);
    ASSERT_MSG("wrong magic");
    test_spit(p, "\x93NUMPY\x04\x00\x10\x00", 10);
    ASSERT_STATUS(iron_tensor_load_npy(p, &t), IRON_ENOTSUP);
    ASSERT_MSG("format version 4.0");
    /* The header's length runs past the end of the file. */
    test_spit(p, "\x93NUMPY\x01\x00\x76\x00{'descr'", 18);
    ASSERT_STATUS(iron_tensor_load_npy(p, &t), IRON_EIO);
    ASSERT_MSG("truncated file: the header needs 128 bytes");
    ASSERT_STATUS(iron_tensor_load_npy(tmp_path(dir, "none.npy"), &t),
                  IRON_EIO);
    ASSERT_MSG("cannot open");

    expect_bad(p, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }",
               4, IRON_EDTYPE, "unsupported dtype: descr '<f2'");
    expect_bad(p, "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
               2, IRON_EDTYPE, "descr '|b1'");
    expect_bad(p, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
               16, IRON_EDTYPE, "object array");
    expect_bad(p, "{'descr': [('a', '<i4')], 'fortran_order': False, "
                  "'shape': (2,), }", 8, IRON_EDTYPE, "structured");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, "
                  "'shape': (1, 1, 1, 1, 1, 1, 1), }", 4, IRON_ESHAPE,
               "shape has 7 dimensions; iron tensors have at most 6");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, "
                  "'shape': (4294967296, 4294967296), }", 4, IRON_ESHAPE,
               "element count overflows");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, "
                  "'shape': (99999999999999999999,), }", 4, IRON_EINVAL,
               "past 2^63-1");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, "
                  "'shape': (3, 0), }", 0, IRON_ESHAPE, "dimension 1 is 0");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }",
               12, IRON_EIO,
               "truncated data: the shape needs 4 elements of 4 bytes, the "
               "file holds 12 bytes");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, "
                  "'shape': (1000000, 1000000), }", 16, IRON_EIO,
               "truncated data");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
               12, IRON_EIO, "4 bytes of data follow the 8 bytes");
    expect_bad(p, "{'descr': '<i4', 'shape': (2,), }", 8, IRON_EINVAL,
               "missing 'fortran_order'");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), "
                  "'extra': 1}", 8, IRON_EINVAL, "key 'extra'");
    expect_bad(p, "{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, "
                  "'shape': (2,)}", 8, IRON_EINVAL, "key 'descr' is repeated");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': 0, 'shape': (2,), }", 8,
               IRON_EINVAL, "fortran_order: expected True or False");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, 'shape': (2), }",
               8, IRON_EINVAL, "a 1-tuple needs its comma");
    expect_bad(p, "{'descr': '<i4', 'fortran_order': False, 'shape': [2], }",
               8, IRON_EINVAL, "shape: expected a tuple");
    expect_bad(p, "{'descr': '<i4' 'fortran_order': False, 'shape': (2,), }",
               8, IRON_EINVAL, "expected ',' or '}'");
    expect_bad(p,
               "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), } x",
               8, IRON_EINVAL, "text after the dict");
    expect_bad(p, "['descr']", 8, IRON_EINVAL, "expected '{'");
    test_remove_dir(dir);
}

TEST(npy_save_is_atomic)
{
    const char *dir = test_temp_dir("npy");
    iron_tensor *t = test_arange(IRON_INT32, 4), *u = NULL;
    char p[512];
    snprintf(p, sizeof p, "%s/no/such/folder/x.npy", dir);
    ASSERT_STATUS(iron_tensor_save_npy(t, p), IRON_EIO);
    ASSERT_MSG("create of");
    ASSERT_EQ(test_count_files(dir), 0);
    /* Replacing a file. */
    snprintf(p, sizeof p, "%s/x.npy", dir);
    test_spit(p, "old", 3);
    ASSERT_OK(iron_tensor_save_npy(t, p));
    ASSERT_OK(iron_tensor_load_npy(p, &u));
    ASSERT_EQ(test_at(u, 3), 3);
    iron_tensor_free(u);
    u = NULL;
    ASSERT_EQ(test_count_files(dir), 1);
    /* A folder in the file's place: the rename fails, nothing is left. */
    snprintf(p, sizeof p, "%s/d.npy", dir);
    ASSERT_EQ(mkdir(p, 0700), 0);
    ASSERT_STATUS(iron_tensor_save_npy(t, p), IRON_EIO);
    ASSERT_MSG("rename of");
    ASSERT_EQ(test_count_files(dir), 2);
    ASSERT_STATUS(iron_tensor_save_npy(NULL, p), IRON_EINVAL);
    ASSERT_STATUS(iron_tensor_save_npy(t, NULL), IRON_EINVAL);
    ASSERT_STATUS(iron_tensor_load_npy(p, NULL), IRON_EINVAL);
    ASSERT_STATUS(iron_tensor_load_npy(p, &u), IRON_EIO);
    ASSERT_MSG("not a regular file");
    /* A FIFO is refused at once, not waited on for a writer. */
    snprintf(p, sizeof p, "%s/fifo.npy", dir);
    ASSERT_EQ(mkfifo(p, 0600), 0);
    ASSERT_STATUS(iron_tensor_load_npy(p, &u), IRON_EIO);
    ASSERT_MSG("not a regular file (a FIFO)");
    ASSERT(u == NULL);
    iron_tensor_free(t);
    iron_tensor_free(u);
    test_remove_dir(dir);
}
