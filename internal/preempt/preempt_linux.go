package preempt

import (
	"os"
	"strings"
	"syscall"
)

// off is whether the process started with GODEBUG=asyncpreemptoff=1, which
// the runtime reads once, at start-up: it then sends no preemption signal,
// and neither does Restore (Python's SIGURG handlers see none, as the
// README promises).
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

// Restore sends the calling thread a SIGURG, which the runtime's handler takes
// while Go code runs and so acknowledges, with any preemption signal lost
// before. Call it from Go before work long enough to need preemption (a
// couple of microseconds: two system calls and a signal). A Python SIGURG
// handler, which sees the runtime's preemption signals, sees this one too.
func Restore() {
	if !off {
		_ = syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), syscall.SIGURG)
	}
}
