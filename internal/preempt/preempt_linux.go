package preempt

import (
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// off is whether the process started with GODEBUG=asyncpreemptoff=1, which
// the runtime reads once, at start-up: it then sends no preemption signal,
// and neither does Restore (Python's SIGURG handlers see none, as the
// docs/python-api.md promises).
var off = asyncPreemptOff(os.Getenv("GODEBUG"))

// asyncPreemptOff reads a GODEBUG value as the runtime does: comma-separated
// name=value pairs, the last one naming asyncpreemptoff deciding.
func asyncPreemptOff(godebug string) bool {
	v := ""
	for kv := range strings.SplitSeq(godebug, ",") {
		if name, value, ok := strings.Cut(kv, "="); ok && name == "asyncpreemptoff" {
			v = value
		}
	}
	return v == "1"
}

// Mark is what a repair's SIGURG carries as its value (si_code SI_QUEUE),
// the same in every library built on godlpack (GDL_REPAIR_MARK in
// cpython/runtime.h): the counters of preemption signals that decide where
// to repair leave it out.
const Mark = 0x676f646c

// siginfo is the kernel's siginfo_t of a queued signal (x86-64 and arm64).
type siginfo struct {
	signo, errno, code, _ int32
	pid                   int32
	uid                   uint32
	value                 uint64
	_                     [96]byte
}

// Restore sends the calling thread a SIGURG carrying [Mark], which the
// runtime's handler takes while Go code runs and so acknowledges, with any
// preemption signal lost before. Call it from Go before work long enough to
// need preemption (a couple of microseconds: three system calls and a
// signal). A Python SIGURG handler, which sees the runtime's preemption
// signals, sees this one too.
func Restore() {
	if off {
		return
	}
	pid := syscall.Getpid()
	info := siginfo{signo: int32(syscall.SIGURG), code: -1 /* SI_QUEUE */, pid: int32(pid),
		uid: uint32(syscall.Getuid()), value: Mark}
	_, _, _ = syscall.RawSyscall6(syscall.SYS_RT_TGSIGQUEUEINFO, uintptr(pid), uintptr(syscall.Gettid()),
		uintptr(syscall.SIGURG), uintptr(unsafe.Pointer(&info)), 0, 0)
}
