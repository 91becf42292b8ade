package preempt

import "syscall"

// Restore sends the calling thread a SIGURG, which the runtime's handler takes
// while Go code runs and so acknowledges, with any preemption signal lost
// before. Call it from Go before work long enough to need preemption (a
// couple of microseconds: two system calls and a signal).
func Restore() {
	_ = syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), syscall.SIGURG)
}
