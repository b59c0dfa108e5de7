package permodel

import (
	"sync"
	"testing"
)

func TestMap(t *testing.T) {
	m := New(3)
	if got := m.Get("a"); got != 3 {
		t.Fatalf("unset model: %d, want the default 3", got)
	}
	m.Set("a", 5, nil)
	if m.Get("a") != 5 || m.Get("b") != 3 {
		t.Fatalf("a %d b %d, want 5 and the default 3", m.Get("a"), m.Get("b"))
	}
	if old := m.Set("a", 6, nil); old != 5 {
		t.Fatalf("Set returned %d, want a's value before, 5", old)
	}
	if old := m.Set("d", 3, nil); old != 3 {
		t.Fatalf("Set of a new model returned %d, want the default 3", old)
	}
	m.Set("a", 5, nil)
	m.Set("c", 7, func(d int) int { return d + 1 })
	if m.Get("b") != 4 || m.Get("a") != 5 || m.Get("c") != 7 {
		t.Fatalf("after an update of the default: a %d b %d c %d, want 5 4 7", m.Get("a"), m.Get("b"), m.Get("c"))
	}
	var zero Map[bool]
	if zero.Get("x") {
		t.Fatal("the zero Map holds true")
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { m.Set("m", i, func(d int) int { return d + 1 }); _ = m.Get("m") })
	}
	wg.Wait()
	if m.Get("z") != 12 {
		t.Fatalf("default after 8 concurrent updates: %d, want 12", m.Get("z"))
	}
}
