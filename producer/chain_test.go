package producer_test

import (
	"sync"
	"testing"

	"github.com/godlpack/godlpack/testing/ownertest"
	"github.com/godlpack/godlpack/testing/producertest"
)

// TestChainOfAnyDepth frees chains of re-exports whose deleters used to
// recurse through every link: a million links overflowed the C stack.
// Releases now queue on their thread and the outermost one drains them.
func TestChainOfAnyDepth(t *testing.T) {
	for _, depth := range []int{0, 1, 2, 1000, 1_000_000} {
		before, roots := ownertest.Live(), producertest.ChainRootDeletes()
		m, ok := producertest.Chain(depth)
		if !ok {
			t.Fatalf("depth %d: out of memory", depth)
		}
		if got := ownertest.Live() - before; got != int64(depth) {
			t.Errorf("depth %d: %d owners alive, want %d", depth, got, depth)
		}
		m.Delete()
		if got := ownertest.Live(); got != before {
			t.Errorf("depth %d: %d owners alive after the last deleter, want %d", depth, got, before)
		}
		if got := producertest.ChainRootDeletes() - roots; got != 1 {
			t.Errorf("depth %d: the root's deleter ran %d times, want 1", depth, got)
		}
	}
}

// TestChainsOnManyThreads frees deep chains on several threads at once: each
// thread drains its own queue, and every root is deleted once.
func TestChainsOnManyThreads(t *testing.T) {
	const threads, depth = 8, 100_000
	before, roots := ownertest.Live(), producertest.ChainRootDeletes()
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, ok := producertest.Chain(depth)
			if !ok {
				t.Error("out of memory")
				return
			}
			m.Delete()
		}()
	}
	wg.Wait()
	if got := ownertest.Live(); got != before {
		t.Errorf("%d owners alive, want %d", got, before)
	}
	if got := producertest.ChainRootDeletes() - roots; got != threads {
		t.Errorf("the roots' deleters ran %d times, want %d", got, threads)
	}
}
