package saidonce

import (
	"fmt"
	"sync"
	"testing"
)

func TestSetIsBounded(t *testing.T) {
	var s Set
	if v := s.Add("a"); v != New {
		t.Fatalf("first a: %v, want New", v)
	}
	if v := s.Add("a"); v != Said {
		t.Fatalf("second a: %v, want Said", v)
	}
	for i := 1; i < Max; i++ {
		if v := s.Add(fmt.Sprint(i)); v != New {
			t.Fatalf("key %d of %d: %v, want New", i+1, Max, v)
		}
	}
	got := map[Verdict]int{}
	for i := range 1000 {
		got[s.Add(fmt.Sprint("more", i))]++
	}
	if got[Full] != 1 || got[Said] != 999 || got[New] != 0 {
		t.Fatalf("1000 keys past the bound: %v, want one Full and the rest Said", got)
	}
	if len(s.keys) != Max {
		t.Fatalf("the Set holds %d keys, want at most %d", len(s.keys), Max)
	}
	// The keys it holds are still said once.
	if v := s.Add("a"); v != Said {
		t.Fatalf("a after the bound: %v, want Said", v)
	}
}

func TestSetConcurrentSaysOnce(t *testing.T) {
	var s Set
	var mu sync.Mutex
	got := map[Verdict]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v := s.Add("k")
			mu.Lock()
			got[v]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if got[New] != 1 || got[Said] != 7 {
		t.Fatalf("8 concurrent Adds of one key: %v, want one New", got)
	}
}
