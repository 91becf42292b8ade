package main

// #include "ext.h"
import "C"

import (
	"errors"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/scalar"
)

// goOps runs one kernel of godlpack.ops (package ops) on tensors C has
// taken: import, kernel (without the GIL when the work is large), release,
// and only then raise, since a deleter may run Python code. Ownership of
// every managed tensor passes to Go: each deleter has run once when it
// returns 0, or -1 with the exception set.
//
//export goOps
func goOps(a *C.gdl_ops_args) (rc C.int) {
	var ts [2]*consumer.Tensor
	n, imported := int(a.n), 0
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = capsule.Errorf(capsule.RuntimeError, "godlpack: internal error in godlpack.ops: %v", r)
			}
		}()
		for i := 0; i < n; i++ {
			t, err := consumer.Import(dlpack.Managed{Pointer: a.managed[i], Versioned: bool(a.versioned[i])})
			imported = i + 1 // Import owns it now, and deleted it on error
			if err != nil {
				return capsule.Errorf(capsule.BufferError, "cannot import the tensor: %v", err)
			}
			ts[i] = t
			if !t.CPUAccessible() {
				return capsule.Errorf(capsule.BufferError, "godlpack.ops runs on the CPU, and the data is on %v", t.Device)
			}
		}
		return run(a, ts[0], ts[1])
	}()
	for i := imported; i < n; i++ {
		dlpack.Managed{Pointer: a.managed[i], Versioned: bool(a.versioned[i])}.Delete()
	}
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// run runs the kernel a asks for, naming the Python function in its errors.
func run(a *C.gdl_ops_args, x, y *consumer.Tensor) error {
	var err error
	switch a.op {
	case C.GDL_OP_SUM:
		var s scalar.Scalar
		capsule.WithoutGIL(ops.Work(x), func() { s, err = ops.Sum(x) })
		a.kind, a.ival, a.uval, a.fval = C.uint8_t(s.Kind), C.int64_t(s.Int), C.uint64_t(s.Uint), C.double(s.Real)
		return opError("sum", err)
	case C.GDL_OP_SCALE:
		f := scalar.Scalar{Kind: scalar.Kind(a.kind), Int: int64(a.ival), Uint: uint64(a.uval), Real: float64(a.fval)}
		capsule.WithoutGIL(ops.Work(x), func() { err = ops.Scale(x, f) })
		return opError("scale_", err)
	}
	capsule.WithoutGIL(max(ops.Work(x), ops.Work(y)), func() { err = ops.Copy(x, y) })
	return opError("copy_", err)
}

// opError names the Python exception of a kernel's error.
func opError(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, scalar.ErrRange):
		return capsule.Errorf(capsule.OverflowError, "%s(): %v", op, err)
	case errors.Is(err, ops.ErrOverlap):
		return capsule.Errorf(capsule.ValueError, "%s() cannot write an output whose elements share memory: %v", op, err)
	case errors.Is(err, consumer.ErrReadOnly):
		return capsule.Errorf(capsule.BufferError, "%s() writes in place, and the tensor may not be written: %v", op, err)
	}
	return capsule.Errorf(capsule.ExceptionOf(err), "%s(): %v", op, err)
}
