package main

import (
	"sync/atomic"
	"time"

	"github.com/godlpack/godlpack/pymodule"
)

// A Shelf records how the calls on it overlap, for test_shared.py: shared
// reads may run at once, beside each other, and a write runs alone. Each
// call counts itself in with Go's atomics and checks what runs beside it: a
// read that sees a write running, or a write that sees any other call, is a
// violation of the binder's promise.
type Shelf struct {
	readers, writers atomic.Int32
	most             atomic.Int32 // the most reads seen running at once
	violations       atomic.Int32
	writes           int64 // written by write alone, read by C (a Field) beside reads
}

// Read waits seconds (a sleep: reads overlap on any number of cores) and
// returns how many reads ran when it started, itself included.
func (s *Shelf) Read(seconds float64) int32 {
	n := s.readers.Add(1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	if s.writers.Load() != 0 {
		s.violations.Add(1)
	}
	time.Sleep(time.Duration(seconds * float64(time.Second)))
	if s.writers.Load() != 0 {
		s.violations.Add(1)
	}
	s.readers.Add(-1)
	return n
}

// Write waits seconds alone, and counts itself.
func (s *Shelf) Write(seconds float64) {
	if s.writers.Add(1) != 1 || s.readers.Load() != 0 {
		s.violations.Add(1)
	}
	time.Sleep(time.Duration(seconds * float64(time.Second)))
	s.writes++
	if s.writers.Load() != 1 || s.readers.Load() != 0 {
		s.violations.Add(1)
	}
	s.writers.Add(-1)
}

// Visit is a shared call that calls f, which may call the shelf again from its thread.
func (s *Shelf) Visit(f func() error) error { return f() }

var sharedItems = []pymodule.Item{
	pymodule.NewClass[Shelf]("Shelf", "Calls that record how they overlap: shared reads, exclusive writes.",
		pymodule.InitZero(),
		pymodule.Method("read", "seconds: float", pymodule.F2R((*Shelf).Read),
			"Wait seconds beside other reads; how many ran when it started.").Shared().WithoutGIL(),
		pymodule.Method("write", "seconds: float", pymodule.F2((*Shelf).Write), "Wait seconds alone.").WithoutGIL(),
		pymodule.Method("visit", "f, /", pymodule.F2E((*Shelf).Visit), "Call f, a shared call.").Shared(),
		pymodule.Method("__len__", "", pymodule.F1R(func(s *Shelf) int64 { return s.writes }),
			"The writes so far: a shared special method.").Shared(),
		pymodule.Getter("most", func(s *Shelf) int32 { return s.most.Load() }, "The most reads seen at once."),
		pymodule.Getter("violations", func(s *Shelf) int32 { return s.violations.Load() },
			"The calls that saw a call they exclude running beside them."),
		pymodule.Field("writes", func(s *Shelf) *int64 { return &s.writes }, "The writes so far, read by C."),
	),
}
