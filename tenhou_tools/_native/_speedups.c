/*
 * tenhou_tools._native._speedups: the private C extension of tenhou_tools (see README, "Design").
 *
 * Thirteen functions (and openssl_sha512, which finds what sha512_blocks calls), each with a Python
 * reference that runs when this module is not built and that tests/test_speedups.py holds it to:
 *
 *   build(cls, *args, **kw)     a frozen slotted dataclass built by setting its slots directly
 *                               (reference: tenhou_tools._native.values.build, cls(*args, **kw))
 *   scan(xml, tile_items)       the reader of the exact XML form Tenhou writes
 *                               (reference: tenhou_tools.mjlog.scan.scan_python)
 *   numbers(text, lo, hi)       comma-separated decimal integers, all within lo..hi
 *                               (reference: tenhou_tools.mjlog._parse.numbers_python)
 *   shuffle(rnd, start, dice_at) one hand's wall shuffle over its random words
 *                               (reference: tenhou_tools._native.wall.shuffle)
 *   mt_seeded(key)              an MT19937 state after init_by_array over key's 32-bit words
 *                               (reference: random.Random seeded with those words, getstate())
 *   mt_words(state, n)          its next n outputs as little-endian bytes, the state advanced
 *                               (reference: random.Random.getrandbits(32 * n).to_bytes(...))
 *   sha512_blocks(data)         the SHA-512 digest of each 128-byte block, by OpenSSL's own
 *                               functions (openssl_sha512 finds them; reference: hashlib.sha512)
 *   waits(counts)               the kinds that complete a hand, from its 34 kind counts
 *                               (reference: tenhou_tools.rules.hand.waits_python)
 *   tenpai_discards(counts, kept) each discard of a 3n+2 hand that leaves it tenpai, its waits
 *                               (reference: tenhou_tools.rules.hand.tenpai_discards_python)
 *   tenpai_draws(counts, draws) tenpai_discards of a 3n+1 hand after each of some draws
 *                               (reference: tenhou_tools.rules.hand.tenpai_draws_python)
 *   first_tenpai_sums(...)      the hand value's one-shanten sum over the first tenpai draw
 *                               (reference: tenhou_tools.analysis.value._first_tenpai_sums_python)
 *   regular_gains(counts, ...)  a 3n+1 hand's regular-form cost and the kinds that lower it
 *                               (reference: tenhou_tools.rules.shanten._regular_gains_python)
 *   discard_acceptances(...)    the acceptance after each possible discard of a 3n+2 hand: the
 *                               regular form as regular_gains, and the closed forms
 *                               (reference: tenhou_tools.rules.shanten._discard_acceptances_python)
 *
 * Nothing here decides anything on its own: scan() and numbers() answer None for any input they
 * do not fully understand, and build() hands every case it does not handle (a __post_init__, an
 * unknown or repeated keyword, a missing argument) to the class itself; the kernels of the
 * analysis (waits, tenpai_discards, tenpai_draws, regular_gains, discard_acceptances,
 * first_tenpai_sums) decline with None what they do not handle. sha512_blocks calls OpenSSL and writes no cryptography. scan() and numbers()
 * read untrusted bytes: tests/test_speedups.py fuzzes them under AddressSanitizer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#ifndef _WIN32
#include <dlfcn.h>
#endif

/* ------------------------------------------------------------------------------------------ */
/* scan: the reader of Tenhou's XML subset (mjlog/scan.py)                                     */

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
speedups_scan(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
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
/* numbers: "12,-3,45" -> (12, -3, 45), each within lo..hi, or None                            */

#define MOST_DIGITS 18

static PyObject *
speedups_numbers(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    const char *p, *end;
    Py_ssize_t len, count = 1, i = 0;
    long long lo, hi;
    PyObject *out;

    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "numbers() takes the text, the lowest and the highest value");
        return NULL;
    }
    lo = PyLong_AsLongLong(args[1]);
    if (lo == -1 && PyErr_Occurred())
        return NULL;
    hi = PyLong_AsLongLong(args[2]);
    if (hi == -1 && PyErr_Occurred())
        return NULL;
    if (!PyUnicode_IS_ASCII(args[0]))
        Py_RETURN_NONE;
    len = PyUnicode_GET_LENGTH(args[0]);
    if (len == 0)
        return PyTuple_New(0);
    p = (const char *)PyUnicode_1BYTE_DATA(args[0]);
    end = p + len;
    for (const char *q = p; q < end; q++)
        count += (*q == ',');
    out = PyTuple_New(count);
    if (out == NULL)
        return NULL;
    while (i < count) {
        int negative = 0, digits = 0;
        long long value = 0;
        PyObject *item;
        if (p < end && *p == '-') {
            negative = 1;
            p++;
        }
        while (p < end && *p >= '0' && *p <= '9') {
            if (++digits > MOST_DIGITS)
                goto decline;
            value = value * 10 + (*p - '0');
            p++;
        }
        if (digits == 0)
            goto decline;
        if (negative)
            value = -value;
        if (value < lo || value > hi)
            goto decline;
        if (i < count - 1) {
            if (p >= end || *p != ',')
                goto decline;
            p++;
        } else if (p != end) {
            goto decline;
        }
        item = PyLong_FromLongLong(value);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
        i++;
    }
    return out;
decline:
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* shuffle: one hand's wall (rules/wall.py)                                                    */

#define MOST_TILES 136

static PyObject *
speedups_shuffle(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    PyObject *start, *w = NULL, *result = NULL, *items[MOST_TILES];
    Py_ssize_t n, words, dice_at;
    const unsigned char *rnd;

    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "shuffle() takes the random bytes, the start array and the dice index");
        return NULL;
    }
    start = args[1];
    if (!PyTuple_Check(start) || PyTuple_GET_SIZE(start) > MOST_TILES) {
        PyErr_SetString(PyExc_TypeError, "shuffle(): the start array must be a tuple of at most 136 items");
        return NULL;
    }
    dice_at = PyLong_AsSsize_t(args[2]);
    if (dice_at == -1 && PyErr_Occurred())
        return NULL;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    n = PyTuple_GET_SIZE(start);
    words = view.len / 4;
    if (!(n <= words + 1 && dice_at >= 0 && dice_at + 1 < words)) {
        PyErr_SetString(PyExc_ValueError, "shuffle: too few random words for the array and the dice");
        goto done;
    }
    rnd = (const unsigned char *)view.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        items[i] = PyTuple_GET_ITEM(start, i);
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        const unsigned char *b = rnd + 4 * i;
        uint32_t r = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        Py_ssize_t j = i + (Py_ssize_t)(r % (uint32_t)(n - i));
        PyObject *t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    w = PyList_New(n);
    if (w == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++)
        PyList_SET_ITEM(w, i, Py_NewRef(items[i]));
    {
        const unsigned char *b1 = rnd + 4 * dice_at, *b2 = b1 + 4;
        uint32_t d1 = (uint32_t)b1[0] | (uint32_t)b1[1] << 8 | (uint32_t)b1[2] << 16 | (uint32_t)b1[3] << 24;
        uint32_t d2 = (uint32_t)b2[0] | (uint32_t)b2[1] << 8 | (uint32_t)b2[2] << 16 | (uint32_t)b2[3] << 24;
        result = Py_BuildValue("(Nkk)", w, (unsigned long)d1, (unsigned long)d2);
        w = NULL;
    }
done:
    Py_XDECREF(w);
    PyBuffer_Release(&view);
    return result;
}

/* ------------------------------------------------------------------------------------------ */
/* mt_seeded, mt_words: the wall's MT19937, its words straight into bytes (rules/wall.py)      */

/* The wall's random words come from MT19937 (mt19937ar.c), seeded with init_by_array over the
   seed's key words. random.Random is the same generator, but seeding it goes through a Python
   int of the key (int.from_bytes, then back into words), and each hand's 288 words come out as
   a 9216-bit int that to_bytes() takes apart again: in a replay, the ints cost five times what
   the generator does. Here the generator's state is a bytearray of 2500 bytes (624 words and
   the index, as random.Random.getstate() lists them, in the machine's byte order) that
   mt_words advances in place. random.Random is the reference (rules/wall.py uses it when this
   module is not built) and tests/test_speedups.py holds both functions to it. */

#define MT_N 624
#define MT_M 397
#define MT_STATE_BYTES ((MT_N + 1) * 4)
#define MT_MOST_KEY_WORDS 4096
#define MT_MOST_WORDS 65536

static void
mt_next_block(uint32_t *mt)
{
    int k;
    uint32_t y;
#define MT_MIX(a, b) (((a) & 0x80000000u) | ((b) & 0x7fffffffu))
#define MT_TWIST(y) (((y) >> 1) ^ (((y) & 1u) ? 0x9908b0dfu : 0u))
    for (k = 0; k < MT_N - MT_M; k++) {
        y = MT_MIX(mt[k], mt[k + 1]);
        mt[k] = mt[k + MT_M] ^ MT_TWIST(y);
    }
    for (; k < MT_N - 1; k++) {
        y = MT_MIX(mt[k], mt[k + 1]);
        mt[k] = mt[k + MT_M - MT_N] ^ MT_TWIST(y);
    }
    y = MT_MIX(mt[MT_N - 1], mt[0]);
    mt[MT_N - 1] = mt[MT_M - 1] ^ MT_TWIST(y);
#undef MT_MIX
#undef MT_TWIST
}

static PyObject *
speedups_mt_seeded(PyObject *Py_UNUSED(module), PyObject *key_bytes)
{
    Py_buffer view;
    PyObject *state = NULL;
    uint32_t mt[MT_N + 1], key[MT_MOST_KEY_WORDS];
    Py_ssize_t length, i, j, k;

    if (PyObject_GetBuffer(key_bytes, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    length = view.len / 4;
    if (view.len % 4 != 0 || length < 1 || length > MT_MOST_KEY_WORDS) {
        PyErr_SetString(PyExc_ValueError, "mt_seeded(): the key must be 1 to 4096 32-bit words");
        PyBuffer_Release(&view);
        return NULL;
    }
    for (i = 0; i < length; i++) {
        const unsigned char *b = (const unsigned char *)view.buf + 4 * i;
        key[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    PyBuffer_Release(&view);
    mt[0] = 19650218u;  /* init_genrand(19650218), then init_by_array */
    for (i = 1; i < MT_N; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    i = 1;
    j = 0;
    for (k = MT_N > length ? MT_N : length; k > 0; k--) {
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
    mt[MT_N] = MT_N;  /* the index: the next word starts a new block */
    state = PyByteArray_FromStringAndSize((const char *)mt, MT_STATE_BYTES);
    return state;
}

static PyObject *
speedups_mt_words(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer view;
    PyObject *out = NULL;
    uint32_t mt[MT_N + 1], i;
    Py_ssize_t n;
    unsigned char *b;

    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mt_words() takes the state and a number of words");
        return NULL;
    }
    n = PyLong_AsSsize_t(args[1]);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0 || n > MT_MOST_WORDS) {
        PyErr_SetString(PyExc_ValueError, "mt_words(): the number of words must be 0..65536");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE) < 0)
        return NULL;
    if (view.len != MT_STATE_BYTES) {
        PyErr_SetString(PyExc_TypeError, "mt_words(): the state must be the 2500 writable bytes of mt_seeded()");
        goto done;
    }
    memcpy(mt, view.buf, MT_STATE_BYTES);  /* the buffer's alignment is not known */
    if (mt[MT_N] > MT_N) {
        PyErr_SetString(PyExc_ValueError, "mt_words(): the state's index is beyond 624");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, 4 * n);
    if (out == NULL)
        goto done;
    b = (unsigned char *)PyBytes_AS_STRING(out);
    i = mt[MT_N];
    for (Py_ssize_t k = 0; k < n; k++) {
        uint32_t y;
        if (i >= MT_N) {
            mt_next_block(mt);
            i = 0;
        }
        y = mt[i++];  /* tempering */
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
#if PY_LITTLE_ENDIAN
        memcpy(b + 4 * k, &y, 4);
#else
        b[4 * k] = (unsigned char)y;
        b[4 * k + 1] = (unsigned char)(y >> 8);
        b[4 * k + 2] = (unsigned char)(y >> 16);
        b[4 * k + 3] = (unsigned char)(y >> 24);
#endif
    }
    mt[MT_N] = i;
    memcpy(view.buf, mt, MT_STATE_BYTES);
done:
    PyBuffer_Release(&view);
    return out;
}

/* ------------------------------------------------------------------------------------------ */
/* build: a frozen slotted dataclass, its slots set directly                                   */

/* Per class, made on first use: (names, offsets, defaults, factories), or None when the class is
   not a plain frozen slotted dataclass (build() then calls the class). */
static PyObject *specs = NULL;

typedef struct {
    Py_ssize_t n;
    PyObject *names;      /* tuple of str */
    PyObject *defaults;   /* tuple: a default, or NULL-marker `missing` */
    PyObject *factories;  /* tuple: a default factory, or `missing` */
    Py_ssize_t offsets[64];
} Spec;

static PyObject *missing = NULL;  /* dataclasses.MISSING */

static void
spec_free(PyObject *capsule)
{
    Spec *spec = (Spec *)PyCapsule_GetPointer(capsule, "tenhou_tools._native._speedups.spec");
    if (spec == NULL)
        return;
    Py_XDECREF(spec->names);
    Py_XDECREF(spec->defaults);
    Py_XDECREF(spec->factories);
    PyMem_Free(spec);
}

/* A new capsule holding the class's Spec, Py_None if build() should call the class, NULL on error. */
static PyObject *
make_spec(PyTypeObject *cls)
{
    PyObject *dataclasses = NULL, *fields = NULL, *params = NULL, *frozen = NULL, *post = NULL, *result = NULL;
    Spec *spec = NULL;
    Py_ssize_t n;

    dataclasses = PyImport_ImportModule("dataclasses");
    if (dataclasses == NULL)
        return NULL;
    if (missing == NULL) {
        missing = PyObject_GetAttrString(dataclasses, "MISSING");
        if (missing == NULL)
            goto error;
    }
    params = PyObject_GetAttrString((PyObject *)cls, "__dataclass_params__");
    if (params == NULL) {
        PyErr_Clear();
        goto plain;
    }
    frozen = PyObject_GetAttrString(params, "frozen");
    if (frozen == NULL)
        goto error;
    if (frozen != Py_True || cls->tp_dictoffset != 0 || cls->tp_new != PyBaseObject_Type.tp_new
            || cls->tp_init == PyBaseObject_Type.tp_init)
        goto plain;
    post = PyObject_GetAttrString((PyObject *)cls, "__post_init__");
    if (post != NULL)
        goto plain;
    PyErr_Clear();
    fields = PyObject_CallMethod(dataclasses, "fields", "O", (PyObject *)cls);
    if (fields == NULL)
        goto error;
    n = PyTuple_GET_SIZE(fields);
    if (n > 64)
        goto plain;
    spec = PyMem_Calloc(1, sizeof(Spec));
    if (spec == NULL) {
        PyErr_NoMemory();
        goto error;
    }
    spec->n = n;
    spec->names = PyTuple_New(n);
    spec->defaults = PyTuple_New(n);
    spec->factories = PyTuple_New(n);
    if (spec->names == NULL || spec->defaults == NULL || spec->factories == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *field = PyTuple_GET_ITEM(fields, i);
        PyObject *name = PyObject_GetAttrString(field, "name");
        PyObject *init = PyObject_GetAttrString(field, "init");
        PyObject *deflt = PyObject_GetAttrString(field, "default");
        PyObject *factory = PyObject_GetAttrString(field, "default_factory");
        PyObject *descr = NULL;
        int usable = name != NULL && init == Py_True && deflt != NULL && factory != NULL
            && PyUnicode_Check(name);
        if (usable) {
            descr = PyDict_GetItemWithError(cls->tp_dict, name);  /* borrowed */
            usable = descr != NULL && Py_IS_TYPE(descr, &PyMemberDescr_Type);
        }
        if (usable) {
            PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
            usable = member->type == T_OBJECT_EX && !(member->flags & READONLY);
            spec->offsets[i] = member->offset;
        }
        if (!usable) {
            Py_XDECREF(name);
            Py_XDECREF(init);
            Py_XDECREF(deflt);
            Py_XDECREF(factory);
            if (PyErr_Occurred())
                goto error;
            goto plain;
        }
        Py_DECREF(init);
        PyTuple_SET_ITEM(spec->names, i, name);
        PyTuple_SET_ITEM(spec->defaults, i, deflt);
        PyTuple_SET_ITEM(spec->factories, i, factory);
    }
    result = PyCapsule_New(spec, "tenhou_tools._native._speedups.spec", spec_free);
    if (result == NULL)
        goto error;
    spec = NULL;
    goto done;
plain:
    result = Py_NewRef(Py_None);
    goto done;
error:
    result = NULL;
done:
    if (spec != NULL) {
        Py_XDECREF(spec->names);
        Py_XDECREF(spec->defaults);
        Py_XDECREF(spec->factories);
        PyMem_Free(spec);
    }
    Py_XDECREF(post);
    Py_XDECREF(frozen);
    Py_XDECREF(params);
    Py_XDECREF(fields);
    Py_DECREF(dataclasses);
    return result;
}

static PyObject *
speedups_build(PyObject *Py_UNUSED(module), PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyTypeObject *cls;
    PyObject *capsule, *obj, *values[64];
    Spec *spec;

    if (nargs < 1 || !PyType_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "build() takes a class first");
        return NULL;
    }
    cls = (PyTypeObject *)args[0];
    capsule = PyDict_GetItemWithError(specs, (PyObject *)cls);  /* borrowed */
    if (capsule == NULL) {
        int failed;
        if (PyErr_Occurred())
            return NULL;
        capsule = make_spec(cls);
        if (capsule == NULL)
            return NULL;
        failed = PyDict_SetItem(specs, (PyObject *)cls, capsule);
        Py_DECREF(capsule);  /* the dictionary holds it */
        if (failed < 0)
            return NULL;
    }
    if (capsule == Py_None)
        goto call;
    spec = (Spec *)PyCapsule_GetPointer(capsule, "tenhou_tools._native._speedups.spec");
    if (spec == NULL)
        return NULL;
    nargs -= 1;
    if (nargs > spec->n)
        goto call;
    for (Py_ssize_t i = 0; i < spec->n; i++)
        values[i] = i < nargs ? args[1 + i] : NULL;
    /* Keywords usually come in field order, and their names are the fields' own (interned)
       objects: look for each by identity from the field after the last one found, then from the
       first keyword field; only then compare the text. */
    Py_ssize_t next = nargs;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t at = -1;
        for (Py_ssize_t i = next; i < spec->n; i++) {
            if (PyTuple_GET_ITEM(spec->names, i) == key) {
                at = i;
                break;
            }
        }
        for (Py_ssize_t i = nargs; at < 0 && i < next; i++) {
            if (PyTuple_GET_ITEM(spec->names, i) == key)
                at = i;
        }
        if (at >= 0)
            next = at + 1;
        if (at < 0) {
            for (Py_ssize_t i = nargs; i < spec->n; i++) {
                int same = PyUnicode_Compare(PyTuple_GET_ITEM(spec->names, i), key);
                if (same == -1 && PyErr_Occurred())
                    return NULL;
                if (same == 0) {
                    at = i;
                    break;
                }
            }
        }
        if (at < 0 || values[at] != NULL)
            goto call;  /* unknown or repeated: the class says what is wrong */
        values[at] = args[1 + nargs + k];
    }
    for (Py_ssize_t i = 0; i < spec->n; i++) {
        if (values[i] == NULL && PyTuple_GET_ITEM(spec->defaults, i) == missing
                && PyTuple_GET_ITEM(spec->factories, i) == missing)
            goto call;  /* a required argument is missing */
    }
    obj = cls->tp_alloc(cls, 0);
    if (obj == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < spec->n; i++) {
        PyObject *value = values[i], **slot = (PyObject **)((char *)obj + spec->offsets[i]);
        if (value != NULL) {
            value = Py_NewRef(value);
        } else if (PyTuple_GET_ITEM(spec->defaults, i) != missing) {
            value = Py_NewRef(PyTuple_GET_ITEM(spec->defaults, i));
        } else {
            value = PyObject_CallNoArgs(PyTuple_GET_ITEM(spec->factories, i));
            if (value == NULL) {
                Py_DECREF(obj);
                return NULL;
            }
        }
        *slot = value;
    }
    return obj;
call:
    return PyObject_Vectorcall((PyObject *)cls, args + 1, (size_t)(PyVectorcall_NARGS(nargsf) - 1), kwnames);
}


/* ------------------------------------------------------------------------------------------ */
/* Hands as 34 kind counts, and kinds back as ints (waits and the shanten's regular form)       */

/* A list of 34 ints 0-4 into counts (and their sum into total): 0, or 1 when arg is no such
   list (no real hand: the caller's Python reference then decides). */
static int
read_counts(PyObject *arg, int counts[34], int *total)
{
    *total = 0;
    if (!PyList_Check(arg) || PyList_GET_SIZE(arg) != 34)
        return 1;
    for (int k = 0; k < 34; k++) {
        PyObject *item = PyList_GET_ITEM(arg, k);
        if (!PyLong_CheckExact(item))
            return 1;
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 1;
        }
        if (v < 0 || v > 4)
            return 1;
        counts[k] = (int)v;
        *total += (int)v;
    }
    return 0;
}

/* The first n kinds of found as a tuple of ints. */
static PyObject *
kinds_tuple(const int *found, int n)
{
    PyObject *kinds = PyTuple_New(n);
    if (kinds == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *kind = PyLong_FromLong(found[i]);
        if (kind == NULL) {
            Py_DECREF(kinds);
            return NULL;
        }
        PyTuple_SET_ITEM(kinds, i, kind);
    }
    return kinds;
}

/* ------------------------------------------------------------------------------------------ */
/* waits: the kinds that complete a hand (rules/hand.py)                                       */

/* One suit's counts (9) split into runs and triplets only. */
static int
suit_sets(int c[9])
{
    int i = 0, ok = 0;
    while (i < 9 && c[i] == 0)
        i++;
    if (i == 9)
        return 1;
    if (c[i] >= 3) {
        c[i] -= 3;
        ok = suit_sets(c);
        c[i] += 3;
        if (ok)
            return 1;
    }
    if (i <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        ok = suit_sets(c);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    return ok;
}

/* One suit's counts split into sets and exactly one pair. */
static int
suit_sets_pair(int c[9])
{
    for (int i = 0; i < 9; i++) {
        if (c[i] >= 2) {
            int ok;
            c[i] -= 2;
            ok = suit_sets(c);
            c[i] += 2;
            if (ok)
                return 1;
        }
    }
    return 0;
}

/* A group's status, as _group_status: 1 sets only, 2 sets and one pair, 0 neither. */
static int
group_status(int *counts, int lo, int hi)
{
    int sum = 0;
    if (hi - lo == 7) {
        int pairs = 0;
        for (int k = lo; k < hi; k++) {
            if (counts[k] == 2)
                pairs++;
            else if (counts[k] != 0 && counts[k] != 3)
                return 0;
        }
        return pairs == 0 ? 1 : pairs == 1 ? 2 : 0;
    }
    for (int k = lo; k < hi; k++)
        sum += counts[k];
    if (sum % 3 == 0)
        return suit_sets(counts + lo) ? 1 : 0;
    if (sum % 3 == 2)
        return suit_sets_pair(counts + lo) ? 2 : 0;
    return 0;
}

static const int GROUP_LO[4] = {0, 9, 18, 27}, GROUP_HI[4] = {9, 18, 27, 34};
static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

/* The pairs held by the groups other than g (a group whose status is 2 is sets and a pair), or 9
   once one of them is neither sets nor sets and a pair: the hand can only be completed in g when
   this is 0 or 1. */
static int
pairs_beside(const int status[4], int g)
{
    int pairs = 0;
    for (int h = 0; h < 4 && pairs <= 1; h++) {
        if (h == g)
            continue;
        if (status[h] == 2)
            pairs++;
        else if (status[h] == 0)
            pairs = 9;
    }
    return pairs;
}

/* waits_into with each group's status (group_status) already known. */
static int
waits_with_status(int counts[34], int total, const int status[4], int found[34 + 13])
{
    int n = 0;

    for (int g = 0; g < 4; g++) {
        int other_pairs = pairs_beside(status, g);
        if (other_pairs > 1)
            continue;
        for (int k = GROUP_LO[g]; k < GROUP_HI[g]; k++) {
            int st;
            if (counts[k] >= 4)
                continue;
            counts[k]++;
            st = group_status(counts, GROUP_LO[g], GROUP_HI[g]);
            counts[k]--;
            if ((other_pairs == 0 && st == 2) || (other_pairs == 1 && st == 1))
                found[n++] = k;
        }
    }
    if (total == 13) {
        int singles = 0, single = -1, pairs = 0, others = 0, held = 0, most = 0;
        for (int k = 0; k < 34; k++) {
            if (counts[k] == 1) {
                singles++;
                single = k;
            } else if (counts[k] == 2) {
                pairs++;
            }
        }
        if (pairs == 6 && singles == 1)
            found[n++] = single;
        for (int k = 0; k < 34; k++)
            others += counts[k];
        for (int i = 0; i < 13; i++) {
            others -= counts[ORPHANS[i]];
            held += counts[ORPHANS[i]] != 0;
            if (counts[ORPHANS[i]] > most)
                most = counts[ORPHANS[i]];
        }
        if (others == 0) {
            if (held == 13) {
                for (int i = 0; i < 13; i++)
                    found[n++] = ORPHANS[i];
            } else if (held == 12 && most == 2) {
                for (int i = 0; i < 13; i++)
                    if (counts[ORPHANS[i]] == 0)
                        found[n++] = ORPHANS[i];
            }
        }
    }
    return n;
}

/* The kinds that complete counts (total tiles) into found, as waits_python finds them (a kind
   may come twice: a regular wait that is also seven pairs'); their number. counts is restored. */
static int
waits_into(int counts[34], int total, int found[34 + 13])
{
    int status[4];

    for (int g = 0; g < 4; g++)
        status[g] = group_status(counts, GROUP_LO[g], GROUP_HI[g]);
    return waits_with_status(counts, total, status, found);
}

static PyObject *
speedups_waits(PyObject *Py_UNUSED(module), PyObject *arg)
{
    int counts[34], total, found[34 + 13], n;
    PyObject *kinds, *result;

    if (read_counts(arg, counts, &total))
        Py_RETURN_NONE;  /* no real hand; the reference decides */
    n = waits_into(counts, total, found);
    kinds = kinds_tuple(found, n);
    if (kinds == NULL)
        return NULL;
    result = PyFrozenSet_New(kinds);
    Py_DECREF(kinds);
    return result;
}

/* Each kind of group g with one more copy: its group's status (group_status), -1 for a kind held
   four times (no wait); counts is restored. */
static void
group_completions(int counts[34], int g, int st[9])
{
    int lo = GROUP_LO[g], hi = GROUP_HI[g];
    for (int k = lo; k < hi; k++) {
        if (counts[k] >= 4) {
            st[k - lo] = -1;
            continue;
        }
        counts[k]++;
        st[k - lo] = group_status(counts, lo, hi);
        counts[k]--;
    }
}

/* What tenpai_draws knows of the hand before a draw, for the groups the draw leaves alone: their
   statuses, their completions (once asked) and each kind's group status with that kind let go
   (-1 until asked): the same for every draw into another group (callgrind, compiled, 3 corpus
   games' analyze_game: 1,259 M instructions against 1,271 M with each draw's hand searched on its
   own). */
typedef struct {
    int drawn;           /* the group of the draw */
    int status[4], st[4][9], have_st[4], less[34];
} DrawShare;

/* tenpai_options(counts, total, kept, share), the answer of tenpai_discards(counts, kept) (total:
   the tiles; share: NULL, or what tenpai_draws knows of the hand before drawing kept): for a 3n+2
   hand, each kind (ascending) other than kept whose discard leaves a tenpai hand, with its waits
   ascending (rules.hand.tenpai_discards_python).
   A discard changes its own group only: the other groups' statuses and completions (the status
   with each kind added) are the whole hand's, found once and only when a discard asks; the seven
   pairs' and thirteen orphans' counts are the whole hand's, moved by the discard (callgrind,
   compiled, 3 corpus games' analyze_game: this function 89 M instructions against 125 M with
   each discard's waits found by waits_with_status). */
static PyObject *
tenpai_options(int counts[34], int total, long kept, DrawShare *share)
{
    int whole[4], whole_st[4][9], have_st[4] = {0, 0, 0, 0};
    int singles = 0, pairs = 0, others = 0, m = 0;
    PyObject *options[34], *result;

    for (int g = 0; g < 4; g++)
        whole[g] = share != NULL && g != share->drawn ? share->status[g]
                                                      : group_status(counts, GROUP_LO[g], GROUP_HI[g]);
    if (total == 14) {
        for (int k = 0; k < 34; k++) {
            singles += counts[k] == 1;
            pairs += counts[k] == 2;
            others += counts[k];
        }
        for (int i = 0; i < 13; i++)
            others -= counts[ORPHANS[i]];
    }
    for (int d = 0; d < 34; d++) {
        int status[4], own_st[9], own = d < 27 ? d / 9 : 3, c = counts[d];
        uint64_t waits = 0;
        PyObject *kinds, *option;
        if (!c || d == kept)
            continue;
        counts[d]--;
        for (int g = 0; g < 4; g++)
            status[g] = whole[g];
        if (share == NULL || own == share->drawn)
            status[own] = group_status(counts, GROUP_LO[own], GROUP_HI[own]);
        else {
            if (share->less[d] < 0)
                share->less[d] = group_status(counts, GROUP_LO[own], GROUP_HI[own]);
            status[own] = share->less[d];
        }
        for (int g = 0; g < 4; g++) {
            int other_pairs = pairs_beside(status, g), want, *st;
            if (other_pairs > 1)
                continue;
            want = other_pairs == 0 ? 2 : 1;
            if (g == own) {
                group_completions(counts, g, own_st);
                st = own_st;
            } else if (share != NULL && g != share->drawn) {
                if (!share->have_st[g]) {
                    group_completions(counts, g, share->st[g]);
                    share->have_st[g] = 1;
                }
                st = share->st[g];
            } else {
                if (!have_st[g]) {
                    group_completions(counts, g, whole_st[g]);
                    have_st[g] = 1;
                }
                st = whole_st[g];
            }
            for (int i = 0; i < GROUP_HI[g] - GROUP_LO[g]; i++)
                if (st[i] == want)
                    waits |= (uint64_t)1 << (GROUP_LO[g] + i);
        }
        if (total == 14) {
            /* seven pairs: six pairs and a single; thirteen orphans: no other kind */
            if (pairs - (c == 2) + (c == 3) == 6 && singles - (c == 1) + (c == 2) == 1) {
                for (int k = 0; k < 34; k++)
                    if (counts[k] == 1)
                        waits |= (uint64_t)1 << k;
            }
            if (others - (d < 27 && d % 9 != 0 && d % 9 != 8) == 0) {
                int held = 0, most = 0;
                for (int i = 0; i < 13; i++) {
                    held += counts[ORPHANS[i]] != 0;
                    if (counts[ORPHANS[i]] > most)
                        most = counts[ORPHANS[i]];
                }
                if (held == 13 || (held == 12 && most == 2))
                    for (int i = 0; i < 13; i++)
                        if (held == 13 || counts[ORPHANS[i]] == 0)
                            waits |= (uint64_t)1 << ORPHANS[i];
            }
        }
        counts[d]++;
        if (!waits)
            continue;
        {
            int found[34], n = 0;
            for (int k = 0; k < 34; k++)
                if (waits >> k & 1)
                    found[n++] = k;
            kinds = kinds_tuple(found, n);
        }
        if (kinds == NULL)
            goto fail;
        option = PyTuple_New(2);
        if (option == NULL) {
            Py_DECREF(kinds);
            goto fail;
        }
        PyTuple_SET_ITEM(option, 0, PyLong_FromLong(d));  /* a small int: cached, never NULL */
        PyTuple_SET_ITEM(option, 1, kinds);
        options[m++] = option;
    }
    result = PyTuple_New(m);
    if (result == NULL)
        goto fail;
    for (int i = 0; i < m; i++)
        PyTuple_SET_ITEM(result, i, options[i]);
    return result;
fail:
    for (int i = 0; i < m; i++)
        Py_DECREF(options[i]);
    return NULL;
}

static PyObject *
speedups_tenpai_discards(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    int counts[34], total;
    long kept;

    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tenpai_discards(counts, kept) takes a list and an int");
        return NULL;
    }
    if (!PyLong_CheckExact(args[1]) || read_counts(args[0], counts, &total))
        Py_RETURN_NONE;  /* no real hand or kind; the reference decides */
    kept = PyLong_AsLong(args[1]);
    if (kept == -1 && PyErr_Occurred()) {  /* beyond a C long: no kind, so nothing is kept */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    return tenpai_options(counts, total, kept, NULL);
}

/* tenpai_draws(counts, draws): for a 3n+1 hand, each kind of draws (a list or tuple of kinds, in
   its order) with tenpai_options of the hand having drawn it, the drawn kind kept, as a list of
   pairs (rules.hand.tenpai_draws_python). The hand's counts are read once for all its draws
   (callgrind, compiled, 3 corpus games' analyze_game: 1,271 M instructions against 1,298 M with
   tenpai_discards asked per draw). */
static PyObject *
speedups_tenpai_draws(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    int counts[34], total, kinds[34];
    Py_ssize_t n;
    PyObject **items, *result;
    DrawShare share;

    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tenpai_draws(counts, draws) takes a list and a sequence of kinds");
        return NULL;
    }
    if (!(PyList_Check(args[1]) || PyTuple_Check(args[1])) || read_counts(args[0], counts, &total))
        Py_RETURN_NONE;  /* no real hand or draws; the reference decides */
    n = PySequence_Fast_GET_SIZE(args[1]);
    items = PySequence_Fast_ITEMS(args[1]);
    if (n > 34)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n; i++) {
        long k;
        if (!PyLong_CheckExact(items[i]))
            Py_RETURN_NONE;
        k = PyLong_AsLong(items[i]);
        if (k == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (k < 0 || k > 33 || counts[k] >= 4)
            Py_RETURN_NONE;  /* no kind, or a fifth copy */
        kinds[i] = (int)k;
    }
    result = PyList_New(n);
    if (result == NULL)
        return NULL;
    for (int g = 0; g < 4; g++) {
        share.status[g] = group_status(counts, GROUP_LO[g], GROUP_HI[g]);
        share.have_st[g] = 0;
    }
    for (int d = 0; d < 34; d++)
        share.less[d] = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int k = kinds[i];
        PyObject *options, *pair;
        counts[k]++;
        share.drawn = k < 27 ? k / 9 : 3;
        options = tenpai_options(counts, total + 1, k, &share);
        counts[k]--;
        if (options == NULL || (pair = PyTuple_New(2)) == NULL) {
            Py_XDECREF(options);
            Py_DECREF(result);
            return NULL;
        }
        Py_INCREF(items[i]);
        PyTuple_SET_ITEM(pair, 0, items[i]);
        PyTuple_SET_ITEM(pair, 1, options);
        PyList_SET_ITEM(result, i, pair);
    }
    return result;
}


/* ------------------------------------------------------------------------------------------ */
/* first_tenpai_sums: the one-shanten look-ahead's sum over the draw that reaches tenpai        */
/* (analysis/value.py, _first_tenpai_sums_python: the same operations in the same order, so the */
/* same doubles; pow is what Python's float ** int calls).                                      */

static double
tenpai_chance(double tiles, long pool, long draws)
{
    double share;
    if (tiles <= 0 || draws <= 0 || pool <= 0)
        return 0.0;
    share = tiles / (double)pool;
    return 1.0 - pow(1.0 - (share < 1.0 ? share : 1.0), (double)draws);
}

static PyObject *
speedups_first_tenpai_sums(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *branches;
    long tiles, pool, draws;
    double q, ev = 0.0, chance = 0.0;

    if (nargs != 4 || !PyList_CheckExact(args[0]) || !PyLong_CheckExact(args[1]) || !PyLong_CheckExact(args[2])
            || !PyLong_CheckExact(args[3]))
        Py_RETURN_NONE;
    branches = args[0];
    /* each read checked before the next (no C API call with an exception pending) */
    if ((tiles = PyLong_AsLong(args[1])) == -1 && PyErr_Occurred())
        goto decline;
    if ((pool = PyLong_AsLong(args[2])) == -1 && PyErr_Occurred())
        goto decline;
    if ((draws = PyLong_AsLong(args[3])) == -1 && PyErr_Occurred())
        goto decline;
    if (tiles <= 0 || pool <= 0 || draws <= 1 || draws > 1000)
        Py_RETURN_NONE;
    /* every branch (copies, [(tiles, points), ...]) of plain ints and floats, or the reference */
    for (Py_ssize_t b = 0; b < PyList_GET_SIZE(branches); b++) {
        PyObject *branch = PyList_GET_ITEM(branches, b), *outcomes;
        if (!PyTuple_CheckExact(branch) || PyTuple_GET_SIZE(branch) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(branch, 0))
                || !PyList_CheckExact(PyTuple_GET_ITEM(branch, 1)))
            Py_RETURN_NONE;
        outcomes = PyTuple_GET_ITEM(branch, 1);
        for (Py_ssize_t o = 0; o < PyList_GET_SIZE(outcomes); o++) {
            PyObject *pair = PyList_GET_ITEM(outcomes, o);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyFloat_CheckExact(PyTuple_GET_ITEM(pair, 0))
                    || !PyFloat_CheckExact(PyTuple_GET_ITEM(pair, 1)))
                Py_RETURN_NONE;
        }
    }
    q = (double)tiles / (double)pool;
    for (long j = 1; j < draws; j++) {
        double reach_now = pow(1 - q, (double)(j - 1)) * q;
        long rest = draws - j;
        for (Py_ssize_t b = 0; b < PyList_GET_SIZE(branches); b++) {
            PyObject *branch = PyList_GET_ITEM(branches, b), *outcomes = PyTuple_GET_ITEM(branch, 1);
            double best_ev = 0.0, best_chance = 0.0, weight;
            long copies = PyLong_AsLong(PyTuple_GET_ITEM(branch, 0));
            if (copies == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                Py_RETURN_NONE;
            }
            for (Py_ssize_t o = 0; o < PyList_GET_SIZE(outcomes); o++) {
                PyObject *pair = PyList_GET_ITEM(outcomes, o);
                double points = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(pair, 1));
                double c = tenpai_chance(PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(pair, 0)), pool, rest);
                if (c * points > best_ev) {
                    best_ev = c * points;
                    best_chance = c;
                }
            }
            weight = reach_now * (double)copies / (double)tiles;
            ev += weight * best_ev;
            chance += weight * best_chance;
        }
    }
    return Py_BuildValue("(dd)", ev, chance);
decline:  /* a number beyond a C long: the reference decides */
    PyErr_Clear();
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* regular_gains, discard_acceptances: the shanten's regular form, and acceptances (rules/shanten.py) */

/* A group's vector: the fewest tiles to add for each (sets, pair), index sets * 2 + pair, sets
   0-4, pair 0/1; SH_INF marks an impossible entry. The suits' vectors come from the caller's
   table (shanten._suit_table); honours, and 1m and 9m of a three-player game, are worked out
   here as shanten._loose_id does, and the honours carry the blocks of added tiles only. */
#define SH_INF 99
#define SH_SLOTS 10
#define SH_NO_PATTERN 255
#define SH_TABLE_SIZE 1953125  /* 5 ** 9 */

typedef struct {
    const unsigned char *table;    /* one byte per base-5 suit index: a vector number */
    const unsigned char *vectors;  /* SH_SLOTS bytes per vector number */
    Py_ssize_t n_vectors;
    int sanma;
} ShTables;

static const int POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};

/* The kinds of group g (four-player: manzu, pinzu, souzu, honours; three-player: 1m 9m first). */
static int
sh_group_kinds(int g, int sanma, int *kinds)
{
    if (g == 0 && sanma) {
        kinds[0] = 0, kinds[1] = 8;
        return 2;
    }
    int lo = g * 9, n = g == 3 ? 7 : 9;
    for (int i = 0; i < n; i++)
        kinds[i] = lo + i;
    return n;
}

/* Two groups' vectors together: out[s] is the least a[i] + b[j] over i + j == s with one pair at
   most, SH_INF when no such sum is of two possible entries. A possible entry is at most 14 (a
   hand's tiles), so a sum with an impossible one (SH_INF) is above every possible sum: the
   minimum is taken over all, then capped at SH_INF, without a test per entry; the loops have
   fixed bounds and unroll into straight code: 228 instructions a call against 650, and
   discard_options 136 M instructions against 170 M (callgrind, compiled, 3 corpus games'
   analyze_game of 1,995 M; the test at each lower entry in sh_gains stops at the first). */
static void
sh_combine(const int *a, const int *b, int *out)
{
    int o[SH_SLOTS];
    for (int s = 0; s < SH_SLOTS; s++)
        o[s] = 2 * SH_INF;
#pragma GCC unroll 10
    for (int i = 0; i < SH_SLOTS; i++) {
        int x = a[i];
#pragma GCC unroll 10
        for (int j = 0; j < SH_SLOTS; j++) {
            if (i + j < SH_SLOTS && !(i & j & 1)) {  /* one pair at most */
                int v = x + b[j];
                o[i + j] = v < o[i + j] ? v : o[i + j];
            }
        }
    }
    for (int s = 0; s < SH_SLOTS; s++)
        out[s] = o[s] < SH_INF ? o[s] : SH_INF;
}

/* The entry `slot` (odd) of the combination of a and b, as shanten._slot_cost. */
static int
sh_slot_cost(const int *a, const int *b, int slot)
{
    int best = SH_INF;
    for (int i = 0; i <= slot; i++) {
        int x = a[i] + b[slot - i];
        if (x < best)
            best = x;
    }
    return best;
}

/* Kinds that form no runs, from their held counts (zeros allowed): shanten._loose_id. */
static void
sh_loose(const int *held, int n, int honours, int *out)
{
    int best[SH_SLOTS], next[SH_SLOTS];
    best[0] = 0;
    for (int i = 1; i < SH_SLOTS; i++)
        best[i] = SH_INF;
    for (int k = 0; k < n; k++) {
        int h = held[k];
        if (!h)
            continue;
        int triplet = h >= 3 ? 0 : 3 - h, pair = h >= 2 ? 0 : 2 - h;
        for (int i = 0; i < SH_SLOTS; i++)
            next[i] = SH_INF;
        for (int i = 0; i < SH_SLOTS; i++) {
            int v = best[i];
            if (v >= SH_INF)
                continue;
            if (v < next[i])
                next[i] = v;
            if (i + 2 < SH_SLOTS && v + triplet < next[i + 2])
                next[i + 2] = v + triplet;
            if (!(i & 1) && v + pair < next[i + 1])
                next[i + 1] = v + pair;
        }
        memcpy(best, next, sizeof best);
    }
    if (honours) {  /* with the blocks of added tiles only: 3 a set, 2 the pair */
        int fresh[SH_SLOTS];
        for (int i = 0; i < SH_SLOTS; i++)
            fresh[i] = 3 * (i / 2) + 2 * (i & 1);
        sh_combine(best, fresh, out);
    } else {
        memcpy(out, best, sizeof best);
    }
}

/* The vector of group g of counts; 0, or -1 when a suit is no pattern of the table. */
static int
sh_vector(const ShTables *t, const int *counts, int g, int *out)
{
    int kinds[9], n = sh_group_kinds(g, t->sanma, kinds);
    if (n == 9) {
        int index = 0;
        for (int i = 0; i < 9; i++)
            index += counts[kinds[i]] * POW5[i];
        int code = t->table[index];
        if (code == SH_NO_PATTERN || code >= t->n_vectors)
            return -1;
        for (int i = 0; i < SH_SLOTS; i++)
            out[i] = t->vectors[code * SH_SLOTS + i];
        return 0;
    }
    /* the kinds are interchangeable: the vector depends on how many hold one, two, three and four
       copies, which numbers a memo of each shape's vector, worked out on first use */
    static int loose_memo[2][4096][SH_SLOTS];
    static char loose_known[2][4096];
    int held[9], by_count[5] = {0, 0, 0, 0, 0}, honours = g == 3;
    for (int i = 0; i < n; i++) {
        held[i] = counts[kinds[i]];
        by_count[held[i]]++;
    }
    int key = by_count[1] | by_count[2] << 3 | by_count[3] << 6 | by_count[4] << 9;
    if (!loose_known[honours][key]) {
        sh_loose(held, n, honours, loose_memo[honours][key]);
        loose_known[honours][key] = 1;
    }
    memcpy(out, loose_memo[honours][key], sizeof(int) * SH_SLOTS);
    return 0;
}

/* Append to found the kinds of group g whose draw lowers the cost, the others' combination given:
   shanten._gains. Returns the new count, or -1 (a suit no pattern of the table). */
static int
sh_gains(const ShTables *t, int *counts, int g, const int *vector, const int *others, int slot, int *found,
         int n)
{
    int kinds[9], m = sh_group_kinds(g, t->sanma, kinds), more[SH_SLOTS];
    int cost = sh_slot_cost(vector, others, slot);
    if (m == 9) {  /* a suit: the table at the index one tile up */
        int index = 0, limit[SH_SLOTS];
        for (int i = 0; i < 9; i++)
            index += counts[kinds[i]] * POW5[i];
        for (int j = 0; j <= slot; j++)  /* v[j] + others[slot - j] < cost, others read once */
            limit[j] = cost - others[slot - j];
        for (int i = 0; i < 9; i++) {
            if (counts[kinds[i]] >= 4)
                continue;
            int code = t->table[index + POW5[i]];
            if (code == SH_NO_PATTERN || code >= t->n_vectors)
                return -1;
            const unsigned char *v = t->vectors + code * SH_SLOTS;
            for (int j = 0; j <= slot; j++) {
                if (v[j] < limit[j]) {  /* the tile lowers the cost */
                    found[n++] = kinds[i];
                    break;
                }
            }
        }
        return n;
    }
    /* Kinds that form no runs are interchangeable (sh_vector): a draw's vector depends only on the
       count it adds to, so each count held is tried once. With the limits above, the combinations
       of two groups worked out once a call and sh_row's small ints: analyze_game 1,735 M
       instructions against 1,756 M (sh_gains 23 M against 33 M; callgrind, compiled, 3 corpus
       games). */
    int lowers[4] = {-1, -1, -1, -1};
    for (int i = 0; i < m; i++) {
        int k = kinds[i], held = counts[k];
        if (held >= 4)
            continue;
        if (lowers[held] < 0) {
            counts[k]++;
            int bad = sh_vector(t, counts, g, more);
            counts[k]--;
            if (bad)
                return -1;
            lowers[held] = sh_slot_cost(more, others, slot) < cost;
        }
        if (lowers[held])
            found[n++] = k;
    }
    return n;
}

/* Arguments shared by both functions: (counts: list of 34 ints 0-4, slot: odd 1-9, sanma: bool,
   table: bytes of 5**9, vectors: bytes of 10 a vector), read into counts, slot and t, with each
   group's vector in vec. 0 when read, 1 when the caller's reference should decide (a count out
   of range, a suit no pattern of the table), -1 with an exception set. */
static int
sh_arguments(PyObject *const *args, Py_ssize_t nargs, int *counts, int *slot, ShTables *t,
             int vec[4][SH_SLOTS])
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "expected (counts, slot, sanma, table, vectors)");
        return -1;
    }
    int total;
    if (read_counts(args[0], counts, &total))
        return 1;
    long s = PyLong_AsLong(args[1]);
    if (s == -1 && PyErr_Occurred())
        return -1;
    if (s < 1 || s > 9 || !(s & 1))
        return 1;
    *slot = (int)s;
    int sanma = PyObject_IsTrue(args[2]);
    if (sanma < 0)
        return -1;
    t->sanma = sanma;
    if (!PyBytes_Check(args[3]) || PyBytes_GET_SIZE(args[3]) != SH_TABLE_SIZE || !PyBytes_Check(args[4])
            || PyBytes_GET_SIZE(args[4]) % SH_SLOTS) {
        PyErr_SetString(PyExc_ValueError, "table: bytes of 5**9; vectors: bytes of 10 a vector");
        return -1;
    }
    t->table = (const unsigned char *)PyBytes_AS_STRING(args[3]);
    t->vectors = (const unsigned char *)PyBytes_AS_STRING(args[4]);
    t->n_vectors = PyBytes_GET_SIZE(args[4]) / SH_SLOTS;
    for (int g = 0; g < 4; g++)
        if (sh_vector(t, counts, g, vec[g]))
            return 1;
    return 0;
}

/* regular_gains(counts, slot, sanma, table, vectors) -> (cost, kinds) | None: for a 3n+1 hand,
   the fewest tiles to add for the regular form (shanten + 1) and the ascending kinds whose draw
   lowers it (shanten._regular_gains_python). */
static PyObject *
speedups_regular_gains(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    int counts[34], slot, vec[4][SH_SLOTS], found[34], n = 0;
    ShTables t;
    int read = sh_arguments(args, nargs, counts, &slot, &t, vec);
    if (read < 0)
        return NULL;
    if (read > 0)
        Py_RETURN_NONE;
    int cost = SH_INF;
    for (int g = 0; g < 4; g++) {
        int pair[SH_SLOTS], others[SH_SLOTS], first = 1;
        for (int h = 0; h < 4; h++) {
            if (h == g)
                continue;
            if (first) {
                memcpy(others, vec[h], sizeof others);
                first = 0;
            } else {
                sh_combine(others, vec[h], pair);
                memcpy(others, pair, sizeof others);
            }
        }
        if (g == 0)  /* the whole hand's cost: the first group against the other three */
            cost = sh_slot_cost(vec[0], others, slot);
        n = sh_gains(&t, counts, g, vec[g], others, slot, found, n);
        if (n < 0)
            Py_RETURN_NONE;
    }
    PyObject *kinds = kinds_tuple(found, n);
    if (kinds == NULL)
        return NULL;
    return Py_BuildValue("(iN)", cost, kinds);
}

/* Thirteen orphans' kinds: 1m 9m 1p 9p 1s 9s and the honours (tiles.ORPHAN_KINDS). */
static const char SH_ORPHAN[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
                                   1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};

/* The closed forms added to a closed 3n+1 hand's regular shanten `value` and accepted kinds (the
   first *n of found, ascending): the hand's shanten, with found and *n its accepted kinds
   (shanten._with_closed_forms). */
static int
sh_closed_forms(const int *counts, int value, int sanma, int *found, int *n)
{
    int held = 0, pairs = 0, orphans = 0, orphan_pairs = 0;
    for (int k = 0; k < 34; k++) {
        if (!counts[k])
            continue;
        held++;
        pairs += counts[k] >= 2;
        if (SH_ORPHAN[k]) {
            orphans++;
            orphan_pairs += counts[k] >= 2;
        }
    }
    int seven = 6 - pairs + (held < 7 ? 7 - held : 0), thirteen = 13 - orphans - (orphan_pairs ? 1 : 0);
    if (seven > value && thirteen > value)
        return value;
    int best = value < seven ? value : seven;
    if (thirteen < best)
        best = thirteen;
    char accepted[34] = {0};
    if (value == best)
        for (int i = 0; i < *n; i++)
            accepted[found[i]] = 1;
    if (seven == best)  /* a single grows a pair; a new kind counts while fewer than seven */
        for (int k = 0; k < 34; k++)
            if (counts[k] == 1 || (counts[k] == 0 && held < 7))
                accepted[k] = 1;
    if (thirteen == best)  /* a missing orphan; a second copy while no orphan is paired */
        for (int k = 0; k < 34; k++)
            if (SH_ORPHAN[k] && (counts[k] == 0 || (counts[k] == 1 && !orphan_pairs)))
                accepted[k] = 1;
    if (sanma)
        for (int k = 1; k < 8; k++)
            accepted[k] = 0;
    *n = 0;
    for (int k = 0; k < 34; k++)
        if (accepted[k])
            found[(*n)++] = k;
    return best;
}

/* (kind, shanten, kinds, left) as a tuple: left holds unseen[k] for each of the n kinds. The
   kinds and counts are Python's own small ints (0-33), each fetched once for the process and
   then handed out by reference: 1.5 M instructions against 7 M for PyLong_FromLong (callgrind,
   3 corpus games' analyze_game). */
static PyObject *
sh_row(int kind, int shanten, const int *found, int n, const int *unseen)
{
    static PyObject *ints[34];
    if (ints[33] == NULL)
        for (int i = 0; i < 34; i++)
            if (ints[i] == NULL && (ints[i] = PyLong_FromLong(i)) == NULL)
                return NULL;
    PyObject *row = PyTuple_New(4), *kinds = PyTuple_New(n), *left = PyTuple_New(n);
    if (row == NULL || kinds == NULL || left == NULL)
        goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *k = ints[found[i]], *u = ints[unseen[found[i]]];
        Py_INCREF(k);
        Py_INCREF(u);
        PyTuple_SET_ITEM(kinds, i, k);
        PyTuple_SET_ITEM(left, i, u);
    }
    PyObject *k = PyLong_FromLong(kind), *s = PyLong_FromLong(shanten);
    if (k == NULL || s == NULL) {
        Py_XDECREF(k);
        Py_XDECREF(s);
        goto fail;
    }
    PyTuple_SET_ITEM(row, 0, k);
    PyTuple_SET_ITEM(row, 1, s);
    PyTuple_SET_ITEM(row, 2, kinds);
    PyTuple_SET_ITEM(row, 3, left);
    return row;
fail:
    Py_XDECREF(row);
    Py_XDECREF(kinds);
    Py_XDECREF(left);
    return NULL;
}

/* discard_acceptances(counts, slot, sanma, table, vectors, closed, unseen)
   -> [(kind, shanten, kinds, left), ...] | None: for a 3n+2 hand, one entry per kind held
   (ascending): the acceptance of the hand without one copy of it, its regular form (the cost
   after the discard and the kinds whose draw then lowers it) with the closed forms added when
   closed, and the unseen copies of each accepted kind
   (shanten._discard_acceptances_python). */
static PyObject *
speedups_discard_acceptances(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    int counts[34], slot, vec[4][SH_SLOTS], unseen[34], unseen_total;
    ShTables t;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "expected (counts, slot, sanma, table, vectors, closed, unseen)");
        return NULL;
    }
    int read = sh_arguments(args, 5, counts, &slot, &t, vec);
    if (read < 0)
        return NULL;
    int closed = PyObject_IsTrue(args[5]);
    if (closed < 0)
        return NULL;
    if (read > 0 || read_counts(args[6], unseen, &unseen_total))
        Py_RETURN_NONE;
    /* Another group's gains depend on the discard only through `others` (the rest of the hand
       combined): a discard that leaves a vector met before reuses them (each group's are kept
       for the call: one a discard, 34 kinds at most). Half the calls of sh_gains are saved:
       28,093 against 53,160, and discard_options 170 M instructions against 202 M (callgrind,
       compiled, 3 corpus games' analyze_game of 1,995 M). */
    struct {
        int others[SH_SLOTS], n, kinds[9];
    } memo[4][34];
    int memo_n[4] = {0, 0, 0, 0};
    PyObject *rows = PyList_New(0);
    if (rows == NULL)
        return NULL;
    int two[4][4][SH_SLOTS];  /* each two groups a < b combined, worked out once for the four below */
    for (int a = 0; a < 4; a++)
        for (int b = a + 1; b < 4; b++)
            sh_combine(vec[a], vec[b], two[a][b]);
    for (int g = 0; g < 4; g++) {
        int rest[3], r = 0, fixed[SH_SLOTS];
        const int *without[4];  /* for each other group h, the remaining two combined */
        for (int h = 0; h < 4; h++)
            if (h != g)
                rest[r++] = h;
        sh_combine(two[rest[0]][rest[1]], vec[rest[2]], fixed);
        without[rest[0]] = two[rest[1]][rest[2]];
        without[rest[1]] = two[rest[0]][rest[2]];
        without[rest[2]] = two[rest[0]][rest[1]];
        int kinds[9], m = sh_group_kinds(g, t.sanma, kinds);
        for (int i = 0; i < m; i++) {
            int k = kinds[i], found[34], after[SH_SLOTS];
            if (!counts[k])
                continue;
            counts[k]--;
            int n = sh_vector(&t, counts, g, after) ? -1 : 0;  /* -1: a suit no pattern of the table */
            int cost = n < 0 ? SH_INF : sh_slot_cost(after, fixed, slot);
            for (int h = 0; h < 4 && n >= 0; h++) {
                if (h == g) {
                    n = sh_gains(&t, counts, g, after, fixed, slot, found, n);
                } else {
                    int others[SH_SLOTS], e = 0;
                    sh_combine(without[h], after, others);
                    while (e < memo_n[h] && memcmp(memo[h][e].others, others, sizeof others))
                        e++;
                    if (e == memo_n[h]) {  /* not met: found, then kept */
                        int got = sh_gains(&t, counts, h, vec[h], others, slot, memo[h][e].kinds, 0);
                        if (got < 0) {
                            n = -1;
                            break;
                        }
                        memcpy(memo[h][e].others, others, sizeof others);
                        memo[h][e].n = got;
                        memo_n[h]++;
                    }
                    for (int j = 0; j < memo[h][e].n; j++)
                        found[n++] = memo[h][e].kinds[j];
                }
            }
            int shanten = cost - 1;
            if (n >= 0 && closed)
                shanten = sh_closed_forms(counts, shanten, t.sanma, found, &n);
            counts[k]++;
            if (n < 0) {  /* the reference decides */
                Py_DECREF(rows);
                Py_RETURN_NONE;
            }
            PyObject *row = sh_row(k, shanten, found, n, unseen);
            if (row == NULL || PyList_Append(rows, row) < 0) {
                Py_XDECREF(row);
                Py_DECREF(rows);
                return NULL;
            }
            Py_DECREF(row);
        }
    }
    return rows;  /* ascending: the groups and their kinds are in kind order */
}

/* ------------------------------------------------------------------------------------------ */

/* -- the wall's SHA-512: OpenSSL's, without hashlib's glue per digest ----------------------------
 *
 * A hand's wall hashes nine 128-byte blocks (rules/wall.py). hashlib.sha512(block).digest() runs
 * OpenSSL's SHA-512, but each call also looks the digest up by name (EVP_MD_fetch), makes a context,
 * copies it for digest() and frees both: more than half of the 6.9 us a hand takes. These are the
 * same OpenSSL functions, called directly: SHA512_Init, SHA512_Update and SHA512_Final, found with
 * dlsym in the libcrypto that the standard library's _hashlib has already loaded (openssl_sha512's
 * argument is that module's file; RTLD_NOLOAD: nothing new is loaded). No cryptography is written
 * here. Found or not, the Python door (_native/__init__.py) checks a digest against hashlib before
 * it binds sha512_blocks; otherwise the reference (_native/wall.py, hashlib) runs.
 */

typedef int (*sha512_init_fn)(void *);
typedef int (*sha512_update_fn)(void *, const void *, size_t);
typedef int (*sha512_final_fn)(unsigned char *, void *);
static sha512_init_fn sha512_init;
static sha512_update_fn sha512_update;
static sha512_final_fn sha512_final;

#define SHA512_BLOCK 128
#define SHA512_DIGEST 64
#define SHA512_MOST_BLOCKS 4096

/* OpenSSL's SHA512_CTX is 216 bytes (eight state words, two length words, a 128-byte block, two
 * ints); this is room for four times that, aligned for any of its fields. */
typedef union {
    unsigned char bytes[1024];
    uint64_t words[128];
    long double align;
} sha512_context;

static PyObject *
speedups_openssl_sha512(PyObject *Py_UNUSED(module), PyObject *path)
{
#ifdef _WIN32
    (void)path;
    Py_RETURN_FALSE;
#else
    const char *file;
    void *handle;
    sha512_init_fn init;
    sha512_update_fn update;
    sha512_final_fn final;

    if (!PyUnicode_Check(path)) {
        PyErr_SetString(PyExc_TypeError, "openssl_sha512() takes the path of the loaded _hashlib module");
        return NULL;
    }
    file = PyUnicode_AsUTF8(path);
    if (file == NULL)
        return NULL;
    handle = dlopen(file, RTLD_NOW | RTLD_NOLOAD);  /* already loaded: its dependencies are searched too */
    if (handle == NULL)
        Py_RETURN_FALSE;
    init = (sha512_init_fn)dlsym(handle, "SHA512_Init");
    update = (sha512_update_fn)dlsym(handle, "SHA512_Update");
    final = (sha512_final_fn)dlsym(handle, "SHA512_Final");
    /* the handle is kept: the module stays loaded for the life of the process anyway */
    if (init == NULL || update == NULL || final == NULL)
        Py_RETURN_FALSE;  /* what an earlier call found, if anything, stays */
    sha512_update = update;
    sha512_final = final;
    sha512_init = init;
    Py_RETURN_TRUE;
#endif
}

static PyObject *
speedups_sha512_blocks(PyObject *Py_UNUSED(module), PyObject *arg)
{
    Py_buffer view;
    PyObject *out = NULL;
    Py_ssize_t blocks;
    sha512_context ctx;

    if (sha512_init == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "sha512_blocks(): OpenSSL's SHA-512 was not found (openssl_sha512)");
        return NULL;
    }
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len % SHA512_BLOCK != 0 || view.len / SHA512_BLOCK > SHA512_MOST_BLOCKS) {
        PyErr_SetString(PyExc_ValueError, "sha512_blocks(): the bytes must be 0 to 4096 blocks of 128");
        goto done;
    }
    blocks = view.len / SHA512_BLOCK;
    out = PyBytes_FromStringAndSize(NULL, blocks * SHA512_DIGEST);
    if (out == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < blocks; i++) {
        const unsigned char *block = (const unsigned char *)view.buf + i * SHA512_BLOCK;
        unsigned char *digest = (unsigned char *)PyBytes_AS_STRING(out) + i * SHA512_DIGEST;
        if (!sha512_init(&ctx) || !sha512_update(&ctx, block, SHA512_BLOCK) || !sha512_final(digest, &ctx)) {
            Py_CLEAR(out);
            PyErr_SetString(PyExc_RuntimeError, "sha512_blocks(): OpenSSL's SHA-512 failed");
            goto done;
        }
    }
done:
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef speedups_methods[] = {
    {"build", (PyCFunction)(void (*)(void))speedups_build, METH_FASTCALL | METH_KEYWORDS,
     "build(cls, /, *args, **kw) -> cls(*args, **kw) for a frozen slotted dataclass, made by setting\n"
     "its slots directly (the __init__ the dataclass decorator writes goes through\n"
     "object.__setattr__ once a field). Any other class, or a call the fast path does not handle\n"
     "(an unknown, repeated or missing argument), is handed to the class itself."},
    {"scan", (PyCFunction)(void (*)(void))speedups_scan, METH_FASTCALL,
     "scan(xml: bytes, tile_items: tuple) -> (root attributes, items) or None.\n\n"
     "Reads a document only in the exact form Tenhou writes (see mjlog/scan.py): the root\n"
     "<mjloggm ...>, self-closing children with double-quoted printable ASCII attributes, each\n"
     "preceded by one space, and </mjloggm>; whitespace only between elements. Draw and discard\n"
     "tags (<T52/>) give the shared items of tile_items, letters TUVWDEFG by ids 0..135. Anything\n"
     "else, however legal, gives None: the caller's reader then takes the whole document."},
    {"numbers", (PyCFunction)(void (*)(void))speedups_numbers, METH_FASTCALL,
     "numbers(text: str, lo: int, hi: int) -> tuple[int, ...] | None: comma-separated decimal\n"
     "integers (an optional '-', then 1-18 ASCII digits), each within lo..hi; '' gives ().\n"
     "Anything else gives None (the caller then parses with int() and says what is wrong)."},
    {"shuffle", (PyCFunction)(void (*)(void))speedups_shuffle, METH_FASTCALL,
     "shuffle(rnd: bytes, start: tuple, dice_at: int) -> (list, int, int): start shuffled with\n"
     "the little-endian 32-bit words of rnd (swap w[i], w[i + rnd[i] % (n - i)] for i < n - 1),\n"
     "and the dice words rnd[dice_at], rnd[dice_at + 1]."},
    {"mt_seeded", (PyCFunction)speedups_mt_seeded, METH_O,
     "mt_seeded(key: bytes) -> bytearray: the MT19937 state (2500 bytes: 624 words and the index)\n"
     "after init_by_array over key's little-endian 32-bit words (1 to 4096 of them), as\n"
     "random.Random(int.from_bytes(key, 'little')) holds it when key's last word is not zero."},
    {"openssl_sha512", (PyCFunction)speedups_openssl_sha512, METH_O,
     "openssl_sha512(hashlib_module_path: str) -> bool: find SHA512_Init, SHA512_Update and\n"
     "SHA512_Final in the libcrypto that the already-loaded _hashlib module (this path) uses;\n"
     "whether they were found (sha512_blocks needs them)."},
    {"sha512_blocks", (PyCFunction)speedups_sha512_blocks, METH_O,
     "sha512_blocks(data: bytes) -> bytes: the 64-byte SHA-512 digest of each 128-byte block of\n"
     "data (0 to 4096 blocks), one after another, by OpenSSL (openssl_sha512 first)."},
    {"mt_words", (PyCFunction)(void (*)(void))speedups_mt_words, METH_FASTCALL,
     "mt_words(state: bytearray, n: int) -> bytes: the next n outputs of the generator in state\n"
     "(mt_seeded's), as little-endian 32-bit words, as random.Random.getrandbits(32 * n)\n"
     ".to_bytes(4 * n, 'little') gives them; state advances in place."},
    {"first_tenpai_sums", (PyCFunction)(void (*)(void))speedups_first_tenpai_sums, METH_FASTCALL,
     "first_tenpai_sums(branches, tiles, pool, draws) -> (ev, chance) | None: the one-shanten\n"
     "look-ahead's sum over the draw that first reaches tenpai (analysis.value.\n"
     "_first_tenpai_sums_python, the same doubles); None for anything but its list of (int, list of\n"
     "(float, float)) branches and positive ints, draws 2-1000 (the reference then answers)."},
    {"tenpai_discards", (PyCFunction)(void (*)(void))speedups_tenpai_discards, METH_FASTCALL,
     "tenpai_discards(counts: list[int], kept: int) -> tuple | None: for a 3n+2 hand of 34 kind\n"
     "counts, ((discard, waits), ...): each kind but kept whose discard leaves the hand tenpai,\n"
     "ascending, with its waits ascending (rules.hand.tenpai_discards_python); None when a count\n"
     "is outside 0..4 (no real hand: the reference then decides)."},
    {"tenpai_draws", (PyCFunction)(void (*)(void))speedups_tenpai_draws, METH_FASTCALL,
     "tenpai_draws(counts: list[int], draws: list[int] | tuple[int, ...]) -> list | None: for a 3n+1\n"
     "hand of 34 kind counts, each draw with tenpai_discards of the hand having drawn it, the drawn\n"
     "kind kept (rules.hand.tenpai_draws_python); None when a count or a draw is no real one."},
    {"waits", (PyCFunction)speedups_waits, METH_O,
     "waits(counts: list[int]) -> frozenset[int] | None: the kinds that complete a hand of 34\n"
     "kind counts (rules.hand.waits_python); None when a count is outside 0..4 (no real hand:\n"
     "the reference then decides)."},
    {"regular_gains", (PyCFunction)(void (*)(void))speedups_regular_gains, METH_FASTCALL,
     "regular_gains(counts, slot, sanma, table, vectors) -> (cost, kinds) | None: for a 3n+1 hand\n"
     "of 34 kind counts, the fewest tiles to add for the regular form's entry slot (sets * 2 + 1)\n"
     "and the ascending kinds whose draw lowers it (rules.shanten._regular_gains_python); table and\n"
     "vectors are the suit table (rules.shanten._native_tables). None when a count is outside 0..4\n"
     "or a suit is no pattern of the table (the reference then decides)."},
    {"discard_acceptances", (PyCFunction)(void (*)(void))speedups_discard_acceptances, METH_FASTCALL,
     "discard_acceptances(counts, slot, sanma, table, vectors, closed, unseen)\n"
     "-> [(kind, shanten, kinds, left), ...] | None: for a 3n+2 hand, per kind held (ascending), the\n"
     "acceptance of the hand without one copy of it: the regular form as regular_gains, the closed\n"
     "forms added when closed, left the unseen copies of each accepted kind\n"
     "(rules.shanten._discard_acceptances_python). None as for regular_gains, or when unseen is not\n"
     "34 counts of 0..4."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tenhou_tools._native._speedups",
    .m_doc = "Private C speed-ups of tenhou_tools; each function has a Python reference (see _speedups.c).",
    .m_size = -1,
    .m_methods = speedups_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    specs = PyDict_New();
    if (specs == NULL)
        return NULL;
    return PyModule_Create(&speedups_module);
}
