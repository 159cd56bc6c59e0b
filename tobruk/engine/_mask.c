/* The legal-action mask's one loop in C: a byte per action id set for every id of every block of a listing.
 *
 * A movement phase lists thousands of ids (a unit's moves, one a destination); setting their bytes one by one in
 * Python took most of the time of a position's first mask (about 25 ns an id).  Here it is a read and a store an id.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *mark(PyObject *module, PyObject *args) {
    (void)module;
    Py_buffer mask;
    PyObject *blocks;
    if (!PyArg_ParseTuple(args, "w*O:mark", &mask, &blocks)) return NULL;
    PyObject *outer = PySequence_Fast(blocks, "mark: the blocks must be a sequence");
    if (!outer) {
        PyBuffer_Release(&mask);
        return NULL;
    }
    unsigned char *bytes = (unsigned char *)mask.buf;
    Py_ssize_t n_blocks = PySequence_Fast_GET_SIZE(outer);
    PyObject **block_items = PySequence_Fast_ITEMS(outer);
    for (Py_ssize_t b = 0; b < n_blocks; b++) {
        PyObject *inner = PySequence_Fast(block_items[b], "mark: a block's ids must be a sequence");
        if (!inner) goto fail;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(inner);
        PyObject **ids = PySequence_Fast_ITEMS(inner);
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t i = PyLong_AsSsize_t(ids[k]);
            if (i == -1 && PyErr_Occurred()) {
                Py_DECREF(inner);
                goto fail;
            }
            if (i < 0 || i >= mask.len) {
                PyErr_Format(PyExc_ValueError, "mark: action id %zd is outside the mask (%zd ids)", i, mask.len);
                Py_DECREF(inner);
                goto fail;
            }
            bytes[i] = 1;
        }
        Py_DECREF(inner);
    }
    Py_DECREF(outer);
    PyBuffer_Release(&mask);
    Py_RETURN_NONE;
fail:
    Py_DECREF(outer);
    PyBuffer_Release(&mask);
    return NULL;
}

static PyMethodDef methods[] = {
    {"mark", mark, METH_VARARGS, "mark(mask, blocks) -> None: mask[i] = 1 for every id i of every block"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_mask", "The legal-action mask's loop, compiled.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__mask(void) { return PyModule_Create(&module_def); }
