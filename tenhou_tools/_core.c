/*
 * tenhou_tools._core: the two kernels of `validate` that stay slow when compiled with mypyc.
 *
 * 1. The wall (docs/WALL.md): MT19937 (init_by_array, genrand_int32), SHA-512 of nine 128-byte
 *    blocks per hand, and the swap shuffle. As Python objects this was 29 us a hand: a 9,216-bit
 *    integer, a bytes copy, nine hashlib objects, 144 ints. Here it is plain arithmetic.
 * 2. The reader of Tenhou's XML subset (mjlog/scan.py): the exact form Tenhou writes, one element
 *    after another, straight from the bytes to the (tag, attributes) items, with no piece
 *    strings in between.
 *
 * Both have a pure Python reference that runs in the plain build and in tests next to this code
 * (tests/test_core.py). Nothing here decides anything on its own: scan() answers None for any
 * document it does not fully understand, and the Python reader then takes the whole document.
 *
 * SHA-512 follows FIPS 180-4. Its constants were computed for this file with integer arithmetic:
 * K[t] is the first 64 bits of the fractional part of the cube root of the t-th prime (t < 80),
 * H0[i] the same of the square root of the i-th prime (i < 8); the test checks the digests
 * against hashlib.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* MT19937 (mt19937ar.c: init_by_array and genrand_int32)                                      */

#define MT_N 624
#define MT_M 397
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu
#define MT_MATRIX 0x9908b0dfu

static void
mt_seed(uint32_t *mt, const uint32_t *key, Py_ssize_t length)
{
    int i;
    Py_ssize_t j, k;
    mt[0] = 19650218u;
    for (i = 1; i < MT_N; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    i = 1;
    j = 0;
    for (k = length > MT_N ? length : MT_N; k > 0; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= length)
            j = 0;
    }
    for (k = MT_N - 1; k > 0; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
}

static inline uint32_t
mt_twist(uint32_t upper, uint32_t lower, uint32_t far)
{
    uint32_t y = (upper & MT_UPPER) | (lower & MT_LOWER);
    return far ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX : 0u);
}

static void
mt_refill(uint32_t *mt)
{
    int k;
    for (k = 0; k < MT_N - MT_M; k++)
        mt[k] = mt_twist(mt[k], mt[k + 1], mt[k + MT_M]);
    for (; k < MT_N - 1; k++)
        mt[k] = mt_twist(mt[k], mt[k + 1], mt[k + MT_M - MT_N]);
    mt[MT_N - 1] = mt_twist(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
}

typedef struct {
    PyObject_HEAD
    uint32_t mt[MT_N];
    int index;
} TwisterObject;

static inline uint32_t
mt_next(TwisterObject *t)
{
    uint32_t y;
    if (t->index >= MT_N) {
        mt_refill(t->mt);
        t->index = 0;
    }
    y = t->mt[t->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* ------------------------------------------------------------------------------------------ */
/* SHA-512 of one 128-byte message (FIPS 180-4): the message block, then the padding block     */

static const uint64_t SHA512_K[80] = {
    0x428a2f98d728ae22u, 0x7137449123ef65cdu, 0xb5c0fbcfec4d3b2fu, 0xe9b5dba58189dbbcu,
    0x3956c25bf348b538u, 0x59f111f1b605d019u, 0x923f82a4af194f9bu, 0xab1c5ed5da6d8118u,
    0xd807aa98a3030242u, 0x12835b0145706fbeu, 0x243185be4ee4b28cu, 0x550c7dc3d5ffb4e2u,
    0x72be5d74f27b896fu, 0x80deb1fe3b1696b1u, 0x9bdc06a725c71235u, 0xc19bf174cf692694u,
    0xe49b69c19ef14ad2u, 0xefbe4786384f25e3u, 0x0fc19dc68b8cd5b5u, 0x240ca1cc77ac9c65u,
    0x2de92c6f592b0275u, 0x4a7484aa6ea6e483u, 0x5cb0a9dcbd41fbd4u, 0x76f988da831153b5u,
    0x983e5152ee66dfabu, 0xa831c66d2db43210u, 0xb00327c898fb213fu, 0xbf597fc7beef0ee4u,
    0xc6e00bf33da88fc2u, 0xd5a79147930aa725u, 0x06ca6351e003826fu, 0x142929670a0e6e70u,
    0x27b70a8546d22ffcu, 0x2e1b21385c26c926u, 0x4d2c6dfc5ac42aedu, 0x53380d139d95b3dfu,
    0x650a73548baf63deu, 0x766a0abb3c77b2a8u, 0x81c2c92e47edaee6u, 0x92722c851482353bu,
    0xa2bfe8a14cf10364u, 0xa81a664bbc423001u, 0xc24b8b70d0f89791u, 0xc76c51a30654be30u,
    0xd192e819d6ef5218u, 0xd69906245565a910u, 0xf40e35855771202au, 0x106aa07032bbd1b8u,
    0x19a4c116b8d2d0c8u, 0x1e376c085141ab53u, 0x2748774cdf8eeb99u, 0x34b0bcb5e19b48a8u,
    0x391c0cb3c5c95a63u, 0x4ed8aa4ae3418acbu, 0x5b9cca4f7763e373u, 0x682e6ff3d6b2b8a3u,
    0x748f82ee5defb2fcu, 0x78a5636f43172f60u, 0x84c87814a1f0ab72u, 0x8cc702081a6439ecu,
    0x90befffa23631e28u, 0xa4506cebde82bde9u, 0xbef9a3f7b2c67915u, 0xc67178f2e372532bu,
    0xca273eceea26619cu, 0xd186b8c721c0c207u, 0xeada7dd6cde0eb1eu, 0xf57d4f7fee6ed178u,
    0x06f067aa72176fbau, 0x0a637dc5a2c898a6u, 0x113f9804bef90daeu, 0x1b710b35131c471bu,
    0x28db77f523047d84u, 0x32caab7b40c72493u, 0x3c9ebe0a15c9bebcu, 0x431d67c49c100d4cu,
    0x4cc5d4becb3e42b6u, 0x597f299cfc657e2au, 0x5fcb6fab3ad6faecu, 0x6c44198c4a475817u,
};

static const uint64_t SHA512_H0[8] = {
    0x6a09e667f3bcc908u, 0xbb67ae8584caa73bu, 0x3c6ef372fe94f82bu, 0xa54ff53a5f1d36f1u,
    0x510e527fade682d1u, 0x9b05688c2b3e6c1fu, 0x1f83d9abfb41bd6bu, 0x5be0cd19137e2179u,
};

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static void
sha512_expand(uint64_t w[80])
{
    for (int t = 16; t < 80; t++) {
        uint64_t s0 = ROTR64(w[t - 15], 1) ^ ROTR64(w[t - 15], 8) ^ (w[t - 15] >> 7);
        uint64_t s1 = ROTR64(w[t - 2], 19) ^ ROTR64(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
}

static void
sha512_rounds(uint64_t h[8], const uint64_t w[80])
{
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 80; t++) {
        uint64_t t1 = k + (ROTR64(e, 14) ^ ROTR64(e, 18) ^ ROTR64(e, 41)) + ((e & f) ^ (~e & g))
                      + SHA512_K[t] + w[t];
        uint64_t t2 = (ROTR64(a, 28) ^ ROTR64(a, 34) ^ ROTR64(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
}

/* A 128-byte message is always followed by the same padding block: 0x80, zeros, and the
   length (1,024 bits) in its last 16 bytes. Its expanded schedule is computed once. */
static uint64_t SHA512_PAD[80];

static void
sha512_init_padding(void)
{
    memset(SHA512_PAD, 0, sizeof SHA512_PAD);
    SHA512_PAD[0] = 0x8000000000000000u;
    SHA512_PAD[15] = 1024u;
    sha512_expand(SHA512_PAD);
}

/* The 16 little-endian 32-bit words of SHA-512(the 32 words `in`, written little-endian). */
static void
sha512_block_words(const uint32_t in[32], uint32_t out[16])
{
    uint64_t w[80], h[8];
    for (int t = 0; t < 16; t++) {
        /* bytes 8t..8t+7 read big-endian: word 2t's four bytes (lowest first), then word 2t+1's */
        uint32_t lo = in[2 * t], hi = in[2 * t + 1];
        uint64_t first = ((uint64_t)(lo & 0xffu) << 24) | ((uint64_t)((lo >> 8) & 0xffu) << 16)
                         | ((uint64_t)((lo >> 16) & 0xffu) << 8) | (uint64_t)(lo >> 24);
        uint64_t second = ((uint64_t)(hi & 0xffu) << 24) | ((uint64_t)((hi >> 8) & 0xffu) << 16)
                          | ((uint64_t)((hi >> 16) & 0xffu) << 8) | (uint64_t)(hi >> 24);
        w[t] = (first << 32) | second;
    }
    sha512_expand(w);
    memcpy(h, SHA512_H0, sizeof h);
    sha512_rounds(h, w);
    sha512_rounds(h, SHA512_PAD);
    /* the digest is h[0..7] big-endian; read back as little-endian 32-bit words */
    for (int i = 0; i < 8; i++) {
        uint32_t top = (uint32_t)(h[i] >> 32), bottom = (uint32_t)h[i];
        out[2 * i] = ((top & 0xffu) << 24) | (((top >> 8) & 0xffu) << 16) | (((top >> 16) & 0xffu) << 8)
                     | (top >> 24);
        out[2 * i + 1] = ((bottom & 0xffu) << 24) | (((bottom >> 8) & 0xffu) << 16)
                         | (((bottom >> 16) & 0xffu) << 8) | (bottom >> 24);
    }
}

#define HAND_DRAWS 288
#define HAND_WORDS 144

/* One hand's 144 random words: 288 draws hashed in nine blocks of 32. */
static void
hand_words(TwisterObject *t, uint32_t rnd[HAND_WORDS])
{
    uint32_t block[32];
    for (int b = 0; b < HAND_DRAWS / 32; b++) {
        for (int i = 0; i < 32; i++)
            block[i] = mt_next(t);
        sha512_block_words(block, rnd + 16 * b);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The Twister type                                                                            */

static PyObject *
Twister_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"key", NULL};
    Py_buffer key;
    TwisterObject *self;
    uint32_t *words;
    Py_ssize_t n;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*:Twister", kwlist, &key))
        return NULL;
    if (key.len == 0 || key.len % 4 != 0) {
        PyErr_Format(PyExc_ValueError, "the key must be a whole number of 32-bit words (1 or more), not %zd bytes",
                     key.len);
        PyBuffer_Release(&key);
        return NULL;
    }
    n = key.len / 4;
    words = PyMem_Malloc((size_t)n * sizeof(uint32_t));
    if (words == NULL) {
        PyBuffer_Release(&key);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)key.buf + 4 * i;
        words[i] = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
    }
    PyBuffer_Release(&key);
    self = (TwisterObject *)type->tp_alloc(type, 0);
    if (self != NULL) {
        mt_seed(self->mt, words, n);
        self->index = MT_N;
    }
    PyMem_Free(words);
    return (PyObject *)self;
}

static PyObject *
words_tuple(const uint32_t *words, Py_ssize_t n)
{
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromUnsignedLong(words[i]);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *
Twister_draw(TwisterObject *self, PyObject *arg)
{
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    uint32_t *words;
    PyObject *out;
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0 || n > 1000000) {
        PyErr_SetString(PyExc_ValueError, "draw(n) takes 0 <= n <= 1000000");
        return NULL;
    }
    words = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
    if (words == NULL)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++)
        words[i] = mt_next(self);
    out = words_tuple(words, n);
    PyMem_Free(words);
    return out;
}

static PyObject *
Twister_sha512_words(TwisterObject *self, PyObject *Py_UNUSED(ignored))
{
    uint32_t rnd[HAND_WORDS];
    hand_words(self, rnd);
    return words_tuple(rnd, HAND_WORDS);
}

static PyObject *
Twister_shuffled_hand(TwisterObject *self, PyObject *start)
{
    uint32_t rnd[HAND_WORDS], w[HAND_WORDS];
    Py_ssize_t n;
    PyObject *order, *result;

    if (!PyTuple_Check(start)) {
        PyErr_SetString(PyExc_TypeError, "shuffled_hand() takes the starting wall as a tuple of ints");
        return NULL;
    }
    n = PyTuple_GET_SIZE(start);
    if (n < 2 || n > 136) {
        PyErr_Format(PyExc_ValueError, "shuffled_hand() takes 2 to 136 tiles, not %zd", n);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(start, i);
        unsigned long value;
        if (!PyLong_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "shuffled_hand() takes the starting wall as a tuple of ints");
            return NULL;
        }
        value = PyLong_AsUnsignedLong(item);
        if ((value == (unsigned long)-1 && PyErr_Occurred()) || value > 0xffffffffUL) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "shuffled_hand() takes values from 0 to 2**32 - 1");
            return NULL;
        }
        w[i] = (uint32_t)value;
    }
    hand_words(self, rnd);
    for (Py_ssize_t i = 0; i < n - 1; i++) {
        Py_ssize_t j = i + (Py_ssize_t)(rnd[i] % (uint32_t)(n - i));
        uint32_t swap = w[i];
        w[i] = w[j];
        w[j] = swap;
    }
    order = words_tuple(w, n);
    if (order == NULL)
        return NULL;
    result = Py_BuildValue("(Okk)", order, (unsigned long)rnd[135], (unsigned long)rnd[136]);
    Py_DECREF(order);
    return result;
}

static PyMethodDef Twister_methods[] = {
    {"draw", (PyCFunction)Twister_draw, METH_O,
     "draw(n) -> tuple of the next n outputs of genrand_int32()."},
    {"sha512_words", (PyCFunction)Twister_sha512_words, METH_NOARGS,
     "sha512_words() -> one hand's 144 random words: the next 288 outputs, SHA-512 in nine blocks of 32."},
    {"shuffled_hand", (PyCFunction)Twister_shuffled_hand, METH_O,
     "shuffled_hand(start) -> (wall, dice_word_1, dice_word_2).\n\n"
     "Takes one hand's 144 random words (as sha512_words), shuffles the tuple `start` with\n"
     "them (swap w[i] and w[i + rnd[i] % (n - i)] for i < n - 1) and returns the result with\n"
     "rnd[135] and rnd[136], the words of the two dice."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TwisterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tenhou_tools._core.Twister",
    .tp_basicsize = sizeof(TwisterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Twister(key: bytes): MT19937 after init_by_array over the key's little-endian 32-bit words."),
    .tp_new = Twister_new,
    .tp_methods = Twister_methods,
};

/* ------------------------------------------------------------------------------------------ */
/* The reader of Tenhou's XML subset                                                           */

/* Names repeat in every log (INIT, hai0, who, ...): each is made once, interned, and kept in a
   small table, so an element costs no new string for its tag and attribute names. */
#define NAMES_SLOTS 512
#define NAMES_LONGEST 24
#define NAMES_MOST 256

typedef struct {
    Py_ssize_t len;
    char text[NAMES_LONGEST];
    PyObject *str;
} NameSlot;

static NameSlot names[NAMES_SLOTS];
static int names_used = 0;

static PyObject *
ascii_str(const unsigned char *p, Py_ssize_t len)
{
    PyObject *s = PyUnicode_New(len, 127);
    if (s != NULL && len > 0)
        memcpy(PyUnicode_1BYTE_DATA(s), p, (size_t)len);
    return s;
}

static PyObject *
name_str(const unsigned char *p, Py_ssize_t len)
{
    uint32_t h = 2166136261u;
    unsigned int slot;
    PyObject *s;
    if (len > NAMES_LONGEST)
        return ascii_str(p, len);
    for (Py_ssize_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 16777619u;
    slot = h % NAMES_SLOTS;
    while (names[slot].str != NULL) {
        if (names[slot].len == len && memcmp(names[slot].text, p, (size_t)len) == 0) {
            Py_INCREF(names[slot].str);
            return names[slot].str;
        }
        slot = (slot + 1) % NAMES_SLOTS;
    }
    s = ascii_str(p, len);
    if (s == NULL || names_used >= NAMES_MOST)
        return s;
    PyUnicode_InternInPlace(&s);
    names[slot].len = len;
    memcpy(names[slot].text, p, (size_t)len);
    Py_INCREF(s);
    names[slot].str = s;
    names_used++;
    return s;
}

static inline int
is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static inline int
is_name_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static inline int
is_name_char(unsigned char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Printable ASCII that XML keeps as it is inside a double-quoted value. */
static inline int
is_value_char(unsigned char c)
{
    return c >= 0x20 && c <= 0x7e && c != '"' && c != '&' && c != '<';
}

#define LONGEST_NAME 200

/* Reads `( ' ' NAME '="' VALUE '"' )*` into `attrs`, then any spaces. 1: read, `*pp` after them;
   0: not in the subset (a repeated name, a long name, another form); -1: a Python error. */
static int
read_attributes(const unsigned char **pp, const unsigned char *end, PyObject *attrs)
{
    const unsigned char *p = *pp;
    for (;;) {
        const unsigned char *name, *q, *value, *r;
        PyObject *key, *val;
        Py_ssize_t before;
        int failed;
        if (p >= end || *p != ' ')
            break;
        name = p + 1;
        if (name >= end || !is_name_start(*name)) {
            while (p < end && *p == ' ')
                p++;
            break;
        }
        for (q = name; q < end && is_name_char(*q); q++)
            ;
        if (q - name > LONGEST_NAME || end - q < 2 || q[0] != '=' || q[1] != '"')
            return 0;
        value = q + 2;
        for (r = value; r < end && is_value_char(*r); r++)
            ;
        if (r >= end || *r != '"')
            return 0;
        key = name_str(name, q - name);
        if (key == NULL)
            return -1;
        val = ascii_str(value, r - value);
        if (val == NULL) {
            Py_DECREF(key);
            return -1;
        }
        before = PyDict_GET_SIZE(attrs);
        failed = PyDict_SetItem(attrs, key, val);
        Py_DECREF(key);
        Py_DECREF(val);
        if (failed < 0)
            return -1;
        if (PyDict_GET_SIZE(attrs) == before)
            return 0;
        p = r + 1;
    }
    *pp = p;
    return 1;
}

static const char TILE_LETTERS[] = "TUVWDEFG";
#define TILE_IDS 136

/* A draw or discard tag as Tenhou writes it (`T52/>`, after the `<`): the shared item for it, or
   -1. `*pp` moves past the `/>`. */
static Py_ssize_t
tile_item(const unsigned char **pp, const unsigned char *end)
{
    const unsigned char *p = *pp;
    const char *letter;
    long tile = 0;
    int digits = 0;
    if (end - p < 4 || p[0] == '\0' || (letter = strchr(TILE_LETTERS, p[0])) == NULL)
        return -1;
    p++;
    while (p < end && *p >= '0' && *p <= '9' && digits < 3) {
        tile = tile * 10 + (*p - '0');
        p++;
        digits++;
    }
    if (digits == 0 || (digits > 1 && (*pp)[1] == '0') || tile >= TILE_IDS)
        return -1;
    if (end - p < 2 || p[0] != '/' || p[1] != '>')
        return -1;
    *pp = p + 2;
    return (Py_ssize_t)(letter - TILE_LETTERS) * TILE_IDS + tile;
}

static PyObject *
core_scan(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    PyObject *tile_items, *root = NULL, *items = NULL, *result = NULL;
    const unsigned char *p, *end;
    int ok;

    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "scan() takes the document and the table of tile items");
        return NULL;
    }
    tile_items = args[1];
    if (!PyTuple_Check(tile_items) || PyTuple_GET_SIZE(tile_items) != 8 * TILE_IDS) {
        PyErr_SetString(PyExc_TypeError, "scan(): the tile items must be a tuple of 8 * 136 items");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    p = (const unsigned char *)view.buf;
    end = p + view.len;

    if (end - p < 8 || memcmp(p, "<mjloggm", 8) != 0)
        goto decline;
    p += 8;
    root = PyDict_New();
    if (root == NULL)
        goto error;
    ok = read_attributes(&p, end, root);
    if (ok < 0)
        goto error;
    if (ok == 0 || p >= end || *p != '>')
        goto decline;
    p++;
    items = PyList_New(0);
    if (items == NULL)
        goto error;
    for (;;) {
        const unsigned char *tag;
        PyObject *name, *attrs, *item;
        Py_ssize_t shared;
        while (p < end && is_space(*p))
            p++;
        if (p >= end || *p != '<')
            goto decline;
        p++;
        if (p < end && *p == '/') {
            if (end - p < 8 || memcmp(p, "/mjloggm", 8) != 0)
                goto decline;
            p += 8;
            while (p < end && is_space(*p))
                p++;
            if (p >= end || *p != '>')
                goto decline;
            p++;
            while (p < end && is_space(*p))
                p++;
            if (p != end)
                goto decline;
            break;
        }
        shared = tile_item(&p, end);
        if (shared >= 0) {
            if (PyList_Append(items, PyTuple_GET_ITEM(tile_items, shared)) < 0)
                goto error;
            continue;
        }
        tag = p;
        if (p >= end || !is_name_start(*p))
            goto decline;
        while (p < end && is_name_char(*p))
            p++;
        if (p - tag > LONGEST_NAME)
            goto decline;
        attrs = PyDict_New();
        if (attrs == NULL)
            goto error;
        name = name_str(tag, p - tag);
        if (name == NULL) {
            Py_DECREF(attrs);
            goto error;
        }
        ok = read_attributes(&p, end, attrs);
        if (ok <= 0 || end - p < 2 || p[0] != '/' || p[1] != '>') {
            Py_DECREF(attrs);
            Py_DECREF(name);
            if (ok < 0)
                goto error;
            goto decline;
        }
        p += 2;
        item = PyTuple_Pack(2, name, attrs);
        Py_DECREF(attrs);
        Py_DECREF(name);
        if (item == NULL)
            goto error;
        ok = PyList_Append(items, item);
        Py_DECREF(item);
        if (ok < 0)
            goto error;
    }
    result = PyTuple_Pack(2, root, items);
    goto done;
decline:
    result = Py_None;
    Py_INCREF(result);
    goto done;
error:
    result = NULL;
done:
    Py_XDECREF(root);
    Py_XDECREF(items);
    PyBuffer_Release(&view);
    return result;
}

/* ------------------------------------------------------------------------------------------ */

static PyMethodDef core_methods[] = {
    {"scan", (PyCFunction)(void (*)(void))core_scan, METH_FASTCALL,
     "scan(xml: bytes, tile_items: tuple) -> (root attributes, items) or None.\n\n"
     "Reads a document only in the exact form Tenhou writes (see mjlog/scan.py): the root\n"
     "<mjloggm ...>, self-closing children with double-quoted printable ASCII attributes, each\n"
     "preceded by one space, and </mjloggm>; whitespace only between elements. Draw and discard\n"
     "tags (<T52/>) give the shared items of tile_items, letters TUVWDEFG by ids 0..135. Anything\n"
     "else, however legal, gives None: the caller's reader then takes the whole document."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tenhou_tools._core",
    .m_doc = "Native kernels of tenhou_tools: wall generation and the mjlog reader (see _core.c).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    PyObject *m;
    sha512_init_padding();
    if (PyType_Ready(&TwisterType) < 0)
        return NULL;
    m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TwisterType);
    if (PyModule_AddObject(m, "Twister", (PyObject *)&TwisterType) < 0) {
        Py_DECREF(&TwisterType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
