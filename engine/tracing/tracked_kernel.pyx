# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The element tracer compiled: the fast path of :mod:`engine.tracing.tracked_scalar` (built at install when a C
compiler is present). Same semantics and the same access stream as the plain-Python classes of
:mod:`engine.tracing.tracked_pure`, which are its oracle (tests/engine/test_tracked_kernel.py runs both on the same
programs and compares every access).

Why it is faster: a tracked value's operators are the type's C slots, so ``a * b`` on two tracked values runs no
Python-level function: the values are combined through the C API, the read batch and the store are three writes
into a C buffer of int64 (grown by doubling), and the result comes from a free list of ``Tracked`` objects. The
access encoding is the pure trace's: a store is -1 (the k-th store has key k), the first read of a batch is
``-key - 2``, a further read of the batch ``key``.

``Tracked`` does not take part in the cyclic garbage collector (the collector would otherwise walk the trace's
short-lived values every few hundred operations): a tracked value refers only to its trace, which refers to no
value, and to its plain value, which the tracer never makes refer back to a tracked value.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.number cimport (
    PyNumber_Absolute,
    PyNumber_Add,
    PyNumber_And,
    PyNumber_Divmod,
    PyNumber_Float,
    PyNumber_FloorDivide,
    PyNumber_Index,
    PyNumber_Invert,
    PyNumber_Long,
    PyNumber_Lshift,
    PyNumber_MatrixMultiply,
    PyNumber_Multiply,
    PyNumber_Negative,
    PyNumber_Or,
    PyNumber_Positive,
    PyNumber_Power,
    PyNumber_Remainder,
    PyNumber_Rshift,
    PyNumber_Subtract,
    PyNumber_TrueDivide,
    PyNumber_Xor,
)
from cpython.object cimport Py_EQ, Py_GE, Py_GT, Py_LE, Py_LT, Py_NE, PyObject_Hash, PyObject_IsTrue, PyObject_RichCompare
from libc.stdint cimport int64_t

import math

import numpy as np

cdef object _ndarray = np.ndarray
cdef object _generic = np.generic
cdef object _ndindex = np.ndindex
cdef tuple _PRIMITIVE = (int, float, bool, complex, str)
cdef object _trunc = math.trunc
cdef object _ceil = math.ceil
cdef object _floor = math.floor
cdef object _round = round
cdef object _complex = complex


@cython.final
cdef class ElementTrace:
    """The access stream of one traced call in a C buffer (one int64 per access; see the module docstring).
    :meth:`columns` decodes it into ``(is_store, key, op)``."""

    cdef int64_t* _buf
    cdef Py_ssize_t _len
    cdef Py_ssize_t _cap
    cdef readonly int64_t _next_key

    def __dealloc__(self):
        PyMem_Free(self._buf)

    def __len__(self):
        return self._len

    cdef int _reserve(self, Py_ssize_t more) except -1:
        cdef Py_ssize_t cap = self._cap if self._cap else 4096
        cdef int64_t* buf
        while cap < self._len + more:
            cap *= 2
        buf = <int64_t*> PyMem_Realloc(self._buf, cap * sizeof(int64_t))
        if buf == NULL:
            raise MemoryError()
        self._buf = buf
        self._cap = cap
        return 0

    cdef inline int _push(self, int64_t event) except -1:
        if self._len == self._cap:
            self._reserve(1)
        self._buf[self._len] = event
        self._len += 1
        return 0

    cdef inline Tracked _store(self, object value):
        """Record a store and return the new value (the key is the store's number)."""
        cdef Tracked out = Tracked.__new__(Tracked)
        self._push(-1)
        out._trace = self
        out._key = self._next_key
        out.val = value
        self._next_key += 1
        return out

    def store(self, value):
        return self._store(value)

    def read(self, first, *more):
        """One operation's read batch: every tracked operand, in operand order (a repeated one twice)."""
        self._push(-<int64_t> first - 2)
        for key in more:
            self._push(key)

    def wrap(self, value, dict memo, list synced):
        """Tracked copy of an argument (see :func:`wrap`)."""
        return _wrap(self, value, memo, synced)

    def __deepcopy__(self, memo):
        """The trace itself: ``copy.deepcopy`` of tracked values (copying references, free) keeps them on it."""
        return self

    def columns(self):
        """``(is_store, key, op)`` per access: op numbers are non-decreasing, one per store and one per read batch."""
        cdef Py_ssize_t n = self._len, i
        is_store = np.empty(n, dtype=np.bool_)
        key = np.empty(n, dtype=np.int64)
        op = np.empty(n, dtype=np.int64)
        cdef unsigned char[::1] s = is_store.view(np.uint8)
        cdef int64_t[::1] k = key
        cdef int64_t[::1] o = op
        cdef int64_t event, stores = 0, ops = -1
        cdef const int64_t* buf = self._buf
        with nogil:
            for i in range(n):
                event = buf[i]
                if event == -1:
                    s[i] = 1
                    k[i] = stores
                    stores += 1
                    ops += 1
                elif event < 0:
                    s[i] = 0
                    k[i] = -event - 2
                    ops += 1
                else:
                    s[i] = 0
                    k[i] = event
                o[i] = ops
        return is_store, key, op


@cython.final
@cython.freelist(64)
@cython.no_gc
cdef class Tracked:
    """A scalar value with a key on an :class:`ElementTrace`; arithmetic returns new tracked values."""

    cdef readonly ElementTrace _trace
    cdef readonly int64_t _key
    cdef public object val

    def __init__(self, ElementTrace trace, int64_t key, val):
        self._trace = trace
        self._key = key
        self.val = val

    cdef inline object _escape(self):
        self._trace._push(-self._key - 2)
        return self.val

    def __bool__(self):
        return PyObject_IsTrue(self._escape())

    def __int__(self):
        return PyNumber_Long(self._escape())

    def __float__(self):
        return PyNumber_Float(self._escape())

    def __complex__(self):
        return _complex(self._escape())

    def __index__(self):
        return PyNumber_Index(self._escape())

    def __hash__(self):
        return PyObject_Hash(self._escape())

    def __repr__(self):
        return f"Tracked({self.val!r})"

    def __str__(self):  # prints like the plain value (as the reference does); not a read
        return str(self.val)

    # binary operators: ``self op other`` (``other`` tracked: one batch of both; else numpy or a constant)
    def __add__(self, other):
        return _binary(self, other, _ADD)

    def __sub__(self, other):
        return _binary(self, other, _SUB)

    def __mul__(self, other):
        return _binary(self, other, _MUL)

    def __truediv__(self, other):
        return _binary(self, other, _TRUEDIV)

    def __floordiv__(self, other):
        return _binary(self, other, _FLOORDIV)

    def __mod__(self, other):
        return _binary(self, other, _MOD)

    def __lshift__(self, other):
        return _binary(self, other, _LSHIFT)

    def __rshift__(self, other):
        return _binary(self, other, _RSHIFT)

    def __and__(self, other):
        return _binary(self, other, _AND)

    def __or__(self, other):
        return _binary(self, other, _OR)

    def __xor__(self, other):
        return _binary(self, other, _XOR)

    def __matmul__(self, other):
        return _binary(self, other, _MATMUL)

    def __divmod__(self, other):
        return _binary(self, other, _DIVMOD)

    def __pow__(self, exponent, modulo=None):
        """``pow(x, e[, m])``: one read batch of every tracked operand, in operand order."""
        if not _is_tracked(self):  # pow(a, b, m) with only m tracked reaches this slot with a as self: not ours
            return NotImplemented
        cdef ElementTrace trace = self._trace
        cdef bint e_tracked = type(exponent) is Tracked, m_tracked = type(modulo) is Tracked
        value = PyNumber_Power(
            self.val,
            (<Tracked> exponent).val if e_tracked else exponent,
            (<Tracked> modulo).val if m_tracked else modulo,
        )
        trace._push(-self._key - 2)
        if e_tracked:
            trace._push((<Tracked> exponent)._key)
        if m_tracked:
            trace._push((<Tracked> modulo)._key)
        return _result(trace, value)

    # reflected operators: ``other op self`` with ``other`` untracked (a constant, or numpy applying it)
    def __radd__(self, other):
        return _single(self, _apply(_ADD, other, self.val))

    def __rsub__(self, other):
        return _single(self, _apply(_SUB, other, self.val))

    def __rmul__(self, other):
        return _single(self, _apply(_MUL, other, self.val))

    def __rtruediv__(self, other):
        return _single(self, _apply(_TRUEDIV, other, self.val))

    def __rfloordiv__(self, other):
        return _single(self, _apply(_FLOORDIV, other, self.val))

    def __rmod__(self, other):
        return _single(self, _apply(_MOD, other, self.val))

    def __rlshift__(self, other):
        return _single(self, _apply(_LSHIFT, other, self.val))

    def __rrshift__(self, other):
        return _single(self, _apply(_RSHIFT, other, self.val))

    def __rand__(self, other):
        return _single(self, _apply(_AND, other, self.val))

    def __ror__(self, other):
        return _single(self, _apply(_OR, other, self.val))

    def __rxor__(self, other):
        return _single(self, _apply(_XOR, other, self.val))

    def __rmatmul__(self, other):
        return _single(self, _apply(_MATMUL, other, self.val))

    def __rdivmod__(self, other):
        return _single(self, _apply(_DIVMOD, other, self.val))

    def __rpow__(self, other, modulo=None):
        if modulo is not None or not _is_tracked(self):  # Python never offers a three-argument pow to the exponent
            return NotImplemented
        return _single(self, PyNumber_Power(other, self.val, None))

    # comparisons: ``self op other`` (Python turns ``3 < t`` into ``t > 3``)
    def __eq__(self, other):
        return _binary(self, other, _EQ)

    def __ne__(self, other):
        return _binary(self, other, _NE)

    def __lt__(self, other):
        return _binary(self, other, _LT)

    def __le__(self, other):
        return _binary(self, other, _LE)

    def __gt__(self, other):
        return _binary(self, other, _GT)

    def __ge__(self, other):
        return _binary(self, other, _GE)

    # unary operators: read self, store the result
    def __neg__(self):
        return _single(self, PyNumber_Negative(self.val))

    def __pos__(self):
        return _single(self, PyNumber_Positive(self.val))

    def __abs__(self):
        return _single(self, PyNumber_Absolute(self.val))

    def __invert__(self):
        return _single(self, PyNumber_Invert(self.val))

    def __trunc__(self):
        return _single(self, _trunc(self.val))

    def __ceil__(self):
        return _single(self, _ceil(self.val))

    def __floor__(self):
        return _single(self, _floor(self.val))

    def __round__(self, *extra):
        return _single(self, _round(self.val, *extra))


cdef enum:
    _ADD, _SUB, _MUL, _TRUEDIV, _FLOORDIV, _MOD, _LSHIFT, _RSHIFT, _AND, _OR, _XOR, _MATMUL, _DIVMOD
    _EQ, _NE, _LT, _LE, _GT, _GE


cdef inline object _apply(int op, object a, object b):
    """``a op b`` through the C API, as the ``operator`` functions compute it (Cython's own arithmetic on objects
    takes shortcuts: ``-0.0 + 0`` would give ``-0.0``)."""
    if op == _ADD:
        return PyNumber_Add(a, b)
    if op == _SUB:
        return PyNumber_Subtract(a, b)
    if op == _MUL:
        return PyNumber_Multiply(a, b)
    if op == _TRUEDIV:
        return PyNumber_TrueDivide(a, b)
    if op == _FLOORDIV:
        return PyNumber_FloorDivide(a, b)
    if op == _MOD:
        return PyNumber_Remainder(a, b)
    if op == _LSHIFT:
        return PyNumber_Lshift(a, b)
    if op == _RSHIFT:
        return PyNumber_Rshift(a, b)
    if op == _AND:
        return PyNumber_And(a, b)
    if op == _OR:
        return PyNumber_Or(a, b)
    if op == _XOR:
        return PyNumber_Xor(a, b)
    if op == _MATMUL:
        return PyNumber_MatrixMultiply(a, b)
    if op == _DIVMOD:
        return PyNumber_Divmod(a, b)
    if op == _EQ:
        return PyObject_RichCompare(a, b, Py_EQ)
    if op == _NE:
        return PyObject_RichCompare(a, b, Py_NE)
    if op == _LT:
        return PyObject_RichCompare(a, b, Py_LT)
    if op == _LE:
        return PyObject_RichCompare(a, b, Py_LE)
    if op == _GT:
        return PyObject_RichCompare(a, b, Py_GT)
    return PyObject_RichCompare(a, b, Py_GE)


cdef inline object _binary(Tracked self, object other, int op):
    if type(other) is Tracked:
        return _pair(self, <Tracked> other, _apply(op, self.val, (<Tracked> other).val))
    return _single(self, _apply(op, self.val, other))


cdef bint _is_tracked(object value):
    """``type(value) is Tracked`` for a value Cython would otherwise assume to be one."""
    return type(value) is Tracked


cdef inline bint _is_number(object value):
    cdef type t = type(value)
    return t is float or t is int or t is bool or t is complex


cdef inline object _pair(Tracked a, Tracked b, object value):
    """``value`` computed from two tracked operands: their read batch, then the stored result (inlined store)."""
    cdef ElementTrace trace = a._trace
    cdef int64_t* buf
    cdef Tracked out
    if trace._len + 3 > trace._cap:
        trace._reserve(3)
    buf = trace._buf + trace._len
    buf[0] = -a._key - 2
    buf[1] = b._key
    if _is_number(value):
        buf[2] = -1
        trace._len += 3
        out = Tracked.__new__(Tracked)
        out._trace = trace
        out._key = trace._next_key
        out.val = value
        trace._next_key += 1
        return out
    trace._len += 2
    return _result(trace, value)


cdef inline object _single(Tracked a, object value):
    """``value`` computed from one tracked operand (the others constants, or array elements numpy already read)."""
    cdef ElementTrace trace = a._trace
    trace._push(-a._key - 2)
    return _result(trace, value)


cdef object _result(ElementTrace trace, object value):
    if value is NotImplemented:
        return value
    if _is_number(value):
        return trace._store(value)
    if isinstance(value, (tuple, list, _ndarray)):  # divmod, or an op on an array: tracked elements kept as they are
        return _wrap(trace, value, {}, [])
    return trace._store(value)


def wrap(ElementTrace trace, value, dict memo, list synced):
    """Tracked copy of an argument (lists/tuples/arrays recursively; shared containers wrapped once)."""
    return _wrap(trace, value, memo, synced)


cdef object _wrap(ElementTrace trace, object value, dict memo, list synced):
    cdef Py_ssize_t i
    cdef object[::1] flat
    if isinstance(value, Tracked):
        return value
    if id(value) in memo:
        return memo[id(value)]
    if type(value) is _ndarray:  # the elements in C order, as ``value[index]`` for each index of np.ndindex gives
        out = np.empty(value.shape, dtype=object)
        memo[id(value)] = out
        synced.append((value, out))
        flat = out.reshape(-1)
        i = 0
        for item in value.ravel().tolist():  # tolist() converts each element as item() does; object ones stay
            flat[i] = _wrap(trace, item.item() if isinstance(item, _generic) else item, memo, synced)
            i += 1
        return out
    if isinstance(value, _ndarray):  # a subclass: indexed element by element
        out = np.empty(value.shape, dtype=object)
        memo[id(value)] = out
        synced.append((value, out))
        for index in _ndindex(value.shape):
            item = value[index]
            out[index] = _wrap(trace, item.item() if isinstance(item, _generic) else item, memo, synced)
        return out
    if isinstance(value, (list, tuple)):
        wrapped = type(value)(_wrapped_items(trace, value, memo, synced))
        memo[id(value)] = wrapped
        if isinstance(value, list):
            synced.append((value, wrapped))
        return wrapped
    tracked = trace._store(value)
    if type(value) not in _PRIMITIVE:
        memo[id(value)] = tracked
    return tracked


def _wrapped_items(ElementTrace trace, value, dict memo, list synced):
    """The wrapped items of a list or tuple, one at a time (handed to its type as a generator, as the pure
    tracer does)."""
    for v in value:
        yield _wrap(trace, v, memo, synced)
