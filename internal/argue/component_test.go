package argue_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/argue"
)

// TestRangeMaximalByComponent: DC and DS under stage and semi-stable
// semantics search only the query's weakly connected component, and agree
// with the answers on that component alone. The framework's other
// components hold 13 odd cycles, whose maximal ranges the searches went
// through one by one: DC-STG -a 1 was not answered in 120 s.
func TestRangeMaximalByComponent(t *testing.T) {
	af := loadAF(t, "testdata/components_n93.af")
	// The query's component, built apart: arguments linked to argument 1
	// (index 0) by attacks either way.
	linked := map[int]bool{0: true}
	for grown := true; grown; {
		grown = false
		for a := range af.Len() {
			for _, b := range af.Attacks(a) {
				if linked[a] != linked[b] {
					linked[a], linked[b], grown = true, true, true
				}
			}
		}
	}
	var members []int
	for a := range af.Len() {
		if linked[a] {
			members = append(members, a)
		}
	}
	comp := argue.NewNumbered(len(members))
	for k, a := range members {
		for _, b := range af.Attacks(a) {
			if err := comp.AddAttack(k, slices.Index(members, b)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(members) != 8 {
		t.Fatalf("the query's component has %d arguments, want 8", len(members))
	}
	for _, sem := range []argue.Semantics{argue.Stage, argue.SemiStable} {
		for k, a := range members {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			dc, w, err := af.CredulousWitness(ctx, sem, a)
			if err != nil {
				cancel()
				t.Fatalf("DC-%s %d: %v", sem, a+1, err)
			}
			want, err := comp.Credulous(ctx, sem, k)
			if err != nil || dc != want {
				t.Errorf("DC-%s %d: %v, on its component alone %v (%v)", sem, a+1, dc, want, err)
			}
			if dc && (!w.Contains(a) || !af.IsConflictFree(w)) {
				t.Errorf("DC-%s %d: certificate %v", sem, a+1, w)
			}
			ds, w, err := af.SkepticalWitness(ctx, sem, a)
			cancel()
			if err != nil {
				t.Fatalf("DS-%s %d: %v", sem, a+1, err)
			}
			want, err = comp.Skeptical(context.Background(), sem, k)
			if err != nil || ds != want {
				t.Errorf("DS-%s %d: %v, on its component alone %v (%v)", sem, a+1, ds, want, err)
			}
			if !ds && (w == nil || w.Contains(a) || !af.IsConflictFree(w)) {
				t.Errorf("DS-%s %d: certificate %v", sem, a+1, w)
			}
		}
	}
}

// TestEmptyCertificateByComponent: an empty extension is a certificate,
// not none. Two arguments attacking themselves: the only semi-stable
// extension is empty, so DS answers NO with it ("w" in ICCMA's output).
func TestEmptyCertificateByComponent(t *testing.T) {
	af := argue.NewNumbered(2)
	for a := range 2 {
		if err := af.AddAttack(a, a); err != nil {
			t.Fatal(err)
		}
	}
	for _, sem := range []argue.Semantics{argue.SemiStable, argue.Stage} {
		yes, w, err := af.SkepticalWitness(context.Background(), sem, 0)
		if err != nil || yes || w == nil || len(w) != 0 {
			t.Errorf("DS-%s 1: %v %#v %v, want NO with the empty extension", sem, yes, w, err)
		}
	}
}
