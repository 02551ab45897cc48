/* What the source files of the _mulred extension share (_mulred_common.h): mulred.MisuseError,
 * the misuse record, the error mapping and the argument converters, below the module
 * (_mulred.c) and mulred.Bases (_mulred_bases.c). */
#include "_mulred_common.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mulred/mulred.h"

PyObject *MisuseError;

/* ---- misuse ----
 * The callback may run on any thread (OpenMP workers included), so it only records: a counter
 * and the last message under a mutex. A caller takes a mark before the call and compares after
 * it; a misuse from a concurrent call on another Python thread may be reported by either call,
 * which is acceptable for what is a programming error anyway. */
static pthread_mutex_t misuse_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long misuse_count;
static char misuse_message[512];

void on_misuse(const char *msg, void *data)
{
    (void)data;
    pthread_mutex_lock(&misuse_lock);
    misuse_count++;
    snprintf(misuse_message, sizeof misuse_message, "%s", msg ? msg : "");
    pthread_mutex_unlock(&misuse_lock);
}

unsigned long misuse_mark(void)
{
    pthread_mutex_lock(&misuse_lock);
    unsigned long v = misuse_count;
    pthread_mutex_unlock(&misuse_lock);
    return v;
}

int misuse_raised(unsigned long mark)
{
    char msg[sizeof misuse_message];
    pthread_mutex_lock(&misuse_lock);
    bool hit = misuse_count != mark;
    if (hit) memcpy(msg, misuse_message, sizeof msg);
    pthread_mutex_unlock(&misuse_lock);
    if (!hit) return 0;
    PyErr_Format(MisuseError, "mulred misuse: %s", msg);
    return 1;
}

PyObject *raise_status(int status, const mulred_error *err)
{
    const char *msg = err && err->message[0] ? err->message : "mulred call failed";
    /* a message may quote bytes of a file that are not UTF-8: they are escaped, never lost */
    PyObject *text = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "backslashreplace");
    if (!text) return NULL;
    switch (status) {
    case MULRED_EINPUT:
        PyErr_SetObject(PyExc_ValueError, text);
        break;
    case MULRED_EMISUSE:
        PyErr_SetObject(MisuseError, text);
        break;
    default:
        PyErr_Format(PyExc_RuntimeError, "%U (status %d)", text, status);
        break;
    }
    Py_DECREF(text);
    return NULL;
}

/* ---- arguments ---- */

/* A C-contiguous buffer of obj; a str or an object without a buffer is a TypeError, a buffer of
 * another layout (a strided or Fortran-ordered numpy array) a BufferError, naming `what`. */
int get_buffer(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a bytes-like object, not str", what);
        return -1;
    }
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a bytes-like object, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_BufferError,
                     "%s: a %.100s that is not C-contiguous (mulred reads the buffer as raw "
                     "bytes in C order; numpy.ascontiguousarray makes a copy that is)",
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* O& converter of a thread count, checked as the command checks --threads: None (the default
 * count, as when --threads is not given: *out = 0) or an integer in 1..4096. */
int threads_converter(PyObject *obj, void *out)
{
    if (obj == Py_None) {
        *(int *)out = 0;
        return 1;
    }
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "threads must be an int or None, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return 0;
    }
    PyObject *n = PyNumber_Index(obj);
    if (!n) return 0;
    int overflow;
    long v = PyLong_AsLongAndOverflow(n, &overflow);
    Py_DECREF(n);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (overflow || v < 1 || v > 4096) {
        PyErr_Format(PyExc_ValueError,
                     "threads must be in 1..4096, or None for the default, not %R", obj);
        return 0;
    }
    *(int *)out = (int)v;
    return 1;
}

/* The OSError of a path the library is about to read, raised here because the library reports
 * an unreadable file as bad input with a message only: OSError maps errno to its subclass
 * (FileNotFoundError, PermissionError, IsADirectoryError), with filename = name. */
int check_readable(const char *path, PyObject *name)
{
    int e = 0, fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        e = errno;
    } else {
        struct stat st;
        if (fstat(fd, &st) != 0)
            e = errno;
        else if (S_ISDIR(st.st_mode))
            e = EISDIR;
        close(fd);
    }
    if (!e) return 0;
    errno = e;
    PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name);
    return -1;
}

int parse_curve(mulred_curve *c, const char *name)
{
    if (mulred_curve_parse(c, name) != MULRED_OK) {
        PyErr_Format(PyExc_ValueError, "curve must be 'bls12-381' or 'bn254', not '%.100s'", name);
        return -1;
    }
    return 0;
}

/* A path argument (str or os.PathLike) as a new bytes object (file system encoding). */
PyObject *fs_path(PyObject *obj)
{
    PyObject *out = NULL;
    if (!PyUnicode_FSConverter(obj, &out)) return NULL;
    return out;
}

bool is_path_like(PyObject *obj)
{
    return PyUnicode_Check(obj) ||
           (!PyObject_CheckBuffer(obj) && PyObject_HasAttrString(obj, "__fspath__"));
}

/* The curve value of group g1 or g2 of c (mulred_curve's G2 values for g2). */
int parse_group(mulred_curve *c, const char *group)
{
    mulred_pairing_group g;
    if (mulred_pairing_group_parse(&g, group) != MULRED_OK) {
        PyErr_Format(PyExc_ValueError, "group must be 'g1' or 'g2', not '%.100s'", group);
        return -1;
    }
    *c = mulred_curve_with_group(*c, g);
    return 0;
}
