// Package preempt keeps long Go work preemptible, so that a garbage
// collection, and every call into Go that waits for one, never waits for it
// to end: [Copy] and [Clear] move large memory in pieces the runtime can stop
// between, and [Restore] works around a defect of the Go runtime that cgo
// callbacks from foreign threads (every call from Python) run into: a thread
// can lose async preemption for good.
//
// The runtime sends a goroutine's thread a SIGURG to preempt it and sends no
// other until the signal has been handled in Go code. A signal that arrives
// once the thread has returned to C (the call ended meanwhile), or that went
// to thread id 0 (the thread that last ran on that M exited, Go 1.26), is
// never acknowledged: from then on, every garbage collection waits for each
// long Go loop on that thread to end. [Restore] acknowledges it.
package preempt
