package main

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
)

// A Counter sums what it is given: the class the binder's tests bind.
type Counter struct {
	name  string
	total float64
	adds  int64
	spins int64 // written by Spin without the GIL, read-modify-write: a race would lose counts
}

func newCounter(name string, start float64) (*Counter, error) {
	if name == "" {
		return nil, CounterError.Errorf("a counter needs a name")
	}
	c := &Counter{name: name, total: start}
	track(c)
	return c, nil
}

// Add adds the elements of x, and returns the total.
func (c *Counter) Add(x pymodule.Tensor) float64 {
	for p := range pymodule.Elements[float64](x) {
		c.total += *p
	}
	c.adds++
	return c.total
}

// Spin counts n times, one at a time: a call that releases the GIL.
func (c *Counter) Spin(n int64) int64 {
	for range n {
		v := c.spins
		c.spins = v + 1
	}
	return c.spins
}

func (c *Counter) Total() float64 { return c.total }
func (c *Counter) Name() string   { return c.name }
func (c *Counter) SetName(name string) error {
	if name == "" {
		return errors.New("a counter needs a name")
	}
	c.name = name
	return nil
}
func (c *Counter) String() string        { return fmt.Sprintf("Counter(%q, total=%g)", c.name, c.total) }
func (c *Counter) Self() *Counter        { return c }
func (c *Counter) Clone() *Counter       { d := *c; return &d }
func (c *Counter) Equal(d *Counter) bool { return c.name == d.name && c.total == d.total }
func (c *Counter) Hash() uint32 {
	h := fnv.New32a()
	h.Write([]byte(c.name))
	return h.Sum32() ^ uint32(math.Float64bits(c.total))
}

// Each calls f with every element of x and adds what it returns.
func (c *Counter) Each(x pymodule.Tensor, f func(float64) (float64, error)) error {
	for p := range pymodule.Elements[float64](x) {
		v, err := f(*p)
		if err != nil {
			return err
		}
		c.total += v
	}
	return nil
}

func counterState(c *Counter) (string, float64, int64) { return c.name, c.total, c.adds }
func counterRestore(name string, total float64, adds int64) (*Counter, error) {
	return &Counter{name: name, total: total, adds: adds}, nil
}

// Mode says how apply rounds.
type Mode int32

const (
	Exact Mode = iota
	Floor
	Ceil
)

var CounterError = pymodule.NewException("CounterError", cpython.ValueError, "A counter was misused.")

var counterClass = pymodule.NewClass[Counter]("Counter", "Sums what it is given.",
	pymodule.Init("name: str, start=0.0", pymodule.F2RE(newCounter)),
	pymodule.Method("add", "x: tensor[float64], /", pymodule.F2R((*Counter).Add), "Add x's elements; the total."),
	pymodule.Method("spin", "n: int", pymodule.F2R((*Counter).Spin), "Count n times, without the GIL.").WithoutGIL(),
	pymodule.Method("self", "", pymodule.F1R((*Counter).Self), "This counter."),
	pymodule.Method("clone", "", pymodule.F1R((*Counter).Clone), "A copy."),
	pymodule.Method("each", "x: tensor[float64], f, /", pymodule.F3E((*Counter).Each), "Add f of each element of x."),
	pymodule.Method("each_free", "x: tensor[float64], f, /", pymodule.F3E((*Counter).EachFree),
		"each, with the GIL released.").WithoutGIL(),
	pymodule.StaticMethod("named", "name: str", pymodule.F1RE(func(name string) (*Counter, error) {
		return newCounter(name, 0)
	}), "A counter at 0."),
	pymodule.Property("total", pymodule.F1R((*Counter).Total), pymodule.Fn{}, "The sum so far."),
	pymodule.Field("adds", func(c *Counter) *int64 { return &c.adds }, "The calls of add so far, read by C."),
	pymodule.Field("spins", func(c *Counter) *int64 { return &c.spins }, "The counts of spin so far, read by C."),
	pymodule.Property("name", pymodule.F1R((*Counter).Name), pymodule.F2E((*Counter).SetName), "The counter's name."),
	pymodule.Const("UNIT", 1.0),
	pymodule.Equality(pymodule.F2R((*Counter).Equal), pymodule.F1R((*Counter).Hash)),
	pymodule.Pickle(pymodule.F1R3(counterState), pymodule.F3RE(counterRestore)),
)

// A Probe holds a field of every type pymodule.Field reads, which set writes.
type Probe struct {
	b    bool
	i    int
	i8   int8
	i16  int16
	i32  int32
	i64  int64
	u    uint
	u8   uint8
	u16  uint16
	u32  uint32
	u64  uint64
	f32  float32
	f64  float64
	c64  complex64
	c128 complex128
	next *Probe // a pointer, which a Field must not read through
}

// set gives every field a value of x's: its bits where x is an integer, as a C cast would.
func (p *Probe) set(x int64) {
	*p = Probe{b: x != 0, i: int(x), i8: int8(x), i16: int16(x), i32: int32(x), i64: x, u: uint(x), u8: uint8(x),
		u16: uint16(x), u32: uint32(x), u64: uint64(x), f32: float32(x) / 4, f64: float64(x) / 4,
		c64: complex(float32(x), -1), c128: complex(float64(x), 0.5)}
}

var probeClass = pymodule.NewClass[Probe]("Probe", "A field of every type Field reads.",
	pymodule.Init("x: int", pymodule.F1R(func(x int64) *Probe { p := new(Probe); p.set(x); return p })),
	pymodule.Method("set", "x: int", pymodule.F2((*Probe).set), "Set every field from x."),
	pymodule.Field("b", func(p *Probe) *bool { return &p.b }, ""),
	pymodule.Field("i", func(p *Probe) *int { return &p.i }, ""),
	pymodule.Field("i8", func(p *Probe) *int8 { return &p.i8 }, ""),
	pymodule.Field("i16", func(p *Probe) *int16 { return &p.i16 }, ""),
	pymodule.Field("i32", func(p *Probe) *int32 { return &p.i32 }, ""),
	pymodule.Field("i64", func(p *Probe) *int64 { return &p.i64 }, ""),
	pymodule.Field("u", func(p *Probe) *uint { return &p.u }, ""),
	pymodule.Field("u8", func(p *Probe) *uint8 { return &p.u8 }, ""),
	pymodule.Field("u16", func(p *Probe) *uint16 { return &p.u16 }, ""),
	pymodule.Field("u32", func(p *Probe) *uint32 { return &p.u32 }, ""),
	pymodule.Field("u64", func(p *Probe) *uint64 { return &p.u64 }, ""),
	pymodule.Field("f32", func(p *Probe) *float32 { return &p.f32 }, ""),
	pymodule.Field("f64", func(p *Probe) *float64 { return &p.f64 }, "A float64 field."),
	pymodule.Field("c64", func(p *Probe) *complex64 { return &p.c64 }, ""),
	pymodule.Field("c128", func(p *Probe) *complex128 { return &p.c128 }, ""),
)

// A Table is a Go map behind a class: Go kills the process ("concurrent map
// writes") when two of its calls run at once, so it holds the binder to its
// promise that no two Go calls run on one value at once.
type Table struct{ m map[int64]int64 }

// Put sets the 4096 keys from key*4096 to value, holding the GIL; key's
// conversion may run Python code.
func (t *Table) Put(key, value int64) {
	for i := range int64(4096) {
		t.m[key*4096+i] = value
	}
}

// Churn writes and deletes n keys, without the GIL.
func (t *Table) Churn(n int64) int {
	for i := range n {
		t.m[-1-i%64] = i
		delete(t.m, -1-(i+32)%64)
	}
	return len(t.m)
}

// Len is the number of keys; setting it to n puts the keys 0 to n-1 (value 0).
func (t *Table) Len() int64 { return int64(len(t.m)) }
func (t *Table) Fill(n int64) {
	for i := range n {
		t.m[i] = 0
	}
}

// Merge puts o's keys into t: two instances held by one call.
func (t *Table) Merge(o *Table) {
	for k, v := range o.m {
		t.m[k] = v
	}
}

var tableClass = pymodule.NewClass[Table]("Table", "A Go map: the binder's promise of one call at a time on a value.",
	pymodule.Init("", pymodule.F0R(func() *Table { return &Table{m: map[int64]int64{}} })),
	pymodule.Method("put", "key: int, value: int, /", pymodule.F3((*Table).Put), "Set key to value, holding the GIL."),
	pymodule.Method("churn", "n: int, /", pymodule.F2R((*Table).Churn), "Write and delete n keys without the GIL.").WithoutGIL(),
	pymodule.Method("merge", "other, /", pymodule.F2((*Table).Merge), "Put other's keys in this table."),
	pymodule.Property("size", pymodule.F1R((*Table).Len), pymodule.F2((*Table).Fill), "The keys; set: fill 0 to n-1."),
)

// A Tally counts bumps: a class as short as Go authors write them, a zero
// value's constructor and a getter that is a method value.
type Tally struct{ n int64 }

func (t *Tally) Bump() int64  { t.n++; return t.n }
func (t *Tally) Count() int64 { return t.n }

var tallyClass = pymodule.NewClass[Tally]("Tally", "Counts bumps.",
	pymodule.InitZero(),
	pymodule.Method("bump", "", pymodule.F1R((*Tally).Bump), "Count one more."),
	pymodule.Getter("count", (*Tally).Count, "The bumps so far."),
)

var classItems = []pymodule.Item{
	counterClass,
	probeClass,
	tableClass,
	tallyClass,
	pymodule.NewEnum[Mode]("Mode", "How apply rounds.", pymodule.Value("EXACT", Exact), pymodule.Value("FLOOR", Floor),
		pymodule.Value("CEIL", Ceil)),
	CounterError,
	pymodule.Const("LIMIT", int64(1000)),
	pymodule.Def("collect", "", pymodule.F0R(collect), "Run Go's GC: the Counters it freed so far."),
	pymodule.Def("slice_sum", "x, /", pymodule.F1RE(func(x pymodule.Tensor) (float32, error) {
		s, err := consumer.Slice[float32](&x) // the error says what x is, as the exception it selects
		var sum float32
		for _, v := range s {
			sum += v
		}
		return sum, err
	}), "The sum of a C-contiguous float32 tensor, read as a []float32."),
	pymodule.Def("declared_sum", "x: tensor[float32, C, convert], /", pymodule.F1R(func(x pymodule.Tensor) float32 {
		var sum float32
		for _, v := range pymodule.Slice[float32](x) { // as declared: no error can happen
			sum += v
		}
		return sum
	}), "The sum of a float32 tensor, declared C-contiguous (converted if it was not)."),
	pymodule.Def("undeclared_slice", "x, /", pymodule.F1R(func(x pymodule.Tensor) int {
		return len(pymodule.Slice[float32](x)) // declared as any tensor: panics for any other
	}), "pymodule.Slice of a tensor the declaration does not hold to float32 and C order."),
	pymodule.Def("dot", "a, b, /", pymodule.F2RE(dot), "The dot product of two vectors, read as []float64."),
	pymodule.Def("halve_", "x: tensor[writable], /", pymodule.F1(func(x []float32) {
		for i := range x {
			x[i] /= 2
		}
	}), "Halve a float32 vector in place, written through a []float32."),
	pymodule.Def("counter_total", "c, /", pymodule.F1R(func(c *Counter) float64 { return c.total }), "The total of c."),
	pymodule.Def("maybe_counter", "c=None", pymodule.F1R(func(c pymodule.Optional[*Counter]) string {
		if !c.Valid {
			return "none"
		}
		return c.Value.name
	}), "c's name, or 'none'."),
	pymodule.Def("apply", "x: float, f, mode=Mode.EXACT", pymodule.F3RE(apply), "f(x), rounded as mode says."),
	pymodule.Def("next_mode", "m", pymodule.F1R(func(m Mode) Mode { return (m + 1) % 3 }), "The next mode."),
	pymodule.Def("rows", "x: tensor[float64, (*, *)], f, /", pymodule.F2E(rows), "f of each row of x, a copy."),
	pymodule.Def("keep", "f", pymodule.F1(keep), "Keep f, to call after the call returned."),
	pymodule.Def("call_kept", "", pymodule.F0RE(callKept), "Call the callback keep kept."),
	pymodule.Def("counter_error", "message: str", pymodule.F1E(func(m string) error {
		return fmt.Errorf("wrapped: %w", CounterError)
	}), "Raise CounterError through a wrapped error."),
	pymodule.Def("apply_released", "x: float, f, /", pymodule.F2RE(applyReleased),
		"f(x), called holding the GIL from Go code that released it (cpython.WithoutGIL)."),
	pymodule.Def("spin_with", "f, n: int", pymodule.F2RE(spinWith), "Call f n times without the GIL.").WithoutGIL(),
	pymodule.Def("slice_callback", "f, /", pymodule.F1RE(sliceCallback), "f of [1, 2, 3] (a []float64); its first element after."),
	pymodule.Def("wait_for_goroutine", "f, /", pymodule.F1E(waitForGoroutine),
		"Call f from another goroutine and wait for it, holding the GIL."),
	pymodule.Def("wait_for_goroutine_free", "f, /", pymodule.F1E(waitForGoroutine),
		"Call f from another goroutine and wait for it, without the GIL.").WithoutGIL(),
	pymodule.Def("call_late", "f, /", pymodule.F1(callLate),
		"Call f from a goroutine, and return 5 ms later, without waiting for it.").WithoutGIL(),
	pymodule.Def("late_error", "", pymodule.F0R(lateError), "What the goroutine call_late started got from f."),
	pymodule.Def("nap", "seconds: float", pymodule.F1(func(s float64) { time.Sleep(time.Duration(s * float64(time.Second))) }),
		"Sleep without the GIL.").WithoutGIL(),
	pymodule.Def("stash", "c, /", pymodule.F1(func(c *Counter) { stashed = c }), "Keep c in Go."),
	pymodule.Def("unstash", "", pymodule.F0R(func() *Counter { return stashed }), "The Counter stash kept."),
	pymodule.Def("unstash_free", "", pymodule.F0R(func() *Counter { return stashed }),
		"The Counter stash kept, without the GIL.").WithoutGIL(),
	pymodule.Def("bad_mode", "", pymodule.F0R(func() Mode { return 7 }), "A Mode no member has."),
	pymodule.Def("keep_slice", "x, /", pymodule.F1(func(x []float64) { keptSlice = x }),
		"Keep x, a slice valid for the call only: what the docs tell Go authors not to do."),
	pymodule.Def("kept_first", "", pymodule.F0R(keptFirst), "The first element of the slice keep_slice kept."),
	pymodule.Def("fail_with", "message: bytes, kind: str", pymodule.F2E(failWith),
		"Fail with message, any bytes: kind 'class' a CounterError, 'value' a ValueError, else a plain error."),
}

var keptSlice []float64

func keptFirst() float64 { return keptSlice[0] }

func failWith(message []byte, kind string) error {
	switch kind {
	case "class":
		return CounterError.Errorf("%s", message)
	case "value":
		return cpython.Errorf(cpython.ValueError, "%s", message)
	}
	return errors.New(string(message))
}

func dot(a, b []float64) (float64, error) {
	if len(a) != len(b) {
		return 0, cpython.Errorf(cpython.ValueError, "vectors of %d and %d elements", len(a), len(b))
	}
	var sum float64
	for i := range a {
		sum += a[i] * b[i]
	}
	return sum, nil
}

func apply(x float64, f func(float64) (float64, error), mode Mode) (float64, error) {
	v, err := f(x)
	if err != nil {
		return 0, err
	}
	switch mode {
	case Floor:
		return math.Floor(v), nil
	case Ceil:
		return math.Ceil(v), nil
	}
	return v, nil
}

// applyReleased calls f from inside cpython.WithoutGIL, which releases the
// GIL the call holds: the callback takes it back for its Python code.
func applyReleased(x float64, f func(float64) (float64, error)) (v float64, err error) {
	cpython.WithoutGIL(1<<30, func() { v, err = f(x) })
	return v, err
}

func rows(x pymodule.Tensor, f func(pymodule.Tensor) error) error {
	for i := range x.Shape[0] {
		if err := f(x.Index(i)); err != nil {
			return err
		}
	}
	return nil
}

var kept func() (int64, error)

func keep(f func() (int64, error)) { kept = f }

func callKept() (int64, error) {
	if kept == nil {
		return 0, errors.New("nothing kept")
	}
	return kept()
}

func sliceCallback(f func([]float64) error) (float64, error) {
	s := []float64{1, 2, 3}
	err := f(s)
	return s[0], err
}

func waitForGoroutine(f func() error) error {
	done := make(chan error)
	go func() { done <- f() }()
	return <-done
}

var stashed *Counter

var late = make(chan string, 1)

func callLate(f func() error) {
	go func() { late <- fmt.Sprint(f()) }()
	time.Sleep(5 * time.Millisecond)
}

func lateError() string { return <-late }

func spinWith(f func(int64) (int64, error), n int64) (int64, error) {
	var sum int64
	for i := range n {
		v, err := f(i)
		if err != nil {
			return 0, err
		}
		sum += v
	}
	return sum, nil
}

// finalized counts the Counters the Go garbage collector freed: an
// instance's death lets go of its value.
var finalized atomic.Int64

func init() {
	track = func(c *Counter) { runtime.SetFinalizer(c, func(*Counter) { finalized.Add(1) }) }
}

var track func(*Counter)

// collect runs Go's garbage collector (twice: finalizers run after the first) and returns how many Counters it freed so far.
func collect() int64 {
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // finalizers run on a goroutine of their own
	return finalized.Load()
}

// EachFree is Each with the GIL released: a callback takes it back.
func (c *Counter) EachFree(x pymodule.Tensor, f func(float64) (float64, error)) error {
	return c.Each(x, f)
}
