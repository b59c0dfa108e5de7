package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

func owner(n int) debate.LeaseOwner {
	return debate.LeaseOwner{ID: fmt.Sprintf("runner-%d", n), Host: "host-a", PID: 1000 + n, Started: base}
}

// testLease checks the lease contract written on debate.Store.
func (s suite) testLease(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const id, ttl = "leased", time.Minute
	if _, err := st.AcquireLease(ctx, "nope", owner(1), ttl, ""); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("AcquireLease of an unknown debate: %v, want ErrNotFound", err)
	}
	mustAppend(t, st, id, created(t, id, "council", "leased", at(0)))
	before := time.Now()
	l, err := st.AcquireLease(ctx, id, owner(1), ttl, "")
	if err != nil {
		t.Fatalf("AcquireLease: %v", err)
	}
	if l.Owner != owner(1) || l.Expires.Before(before.Add(ttl-time.Second)) || !l.Live(time.Now()) {
		t.Errorf("lease %+v: want owner 1, expiring in about %v", l, ttl)
	}
	// Get and List show the holder.
	sum, err := st.Get(ctx, id)
	if err != nil || sum.Lease == nil || sum.Lease.Owner != owner(1) {
		t.Errorf("Get: lease %+v (%v), want owner 1's", sum.Lease, err)
	}
	if sums, err := st.List(ctx, debate.ListFilter{}); err != nil || len(sums) != 1 || sums[0].Lease == nil || sums[0].Lease.Owner.ID != owner(1).ID {
		t.Errorf("List: %+v (%v), want owner 1's lease", sums, err)
	}
	// Another runner is refused, naming the holder.
	_, err = st.AcquireLease(ctx, id, owner(2), ttl, "")
	var held *debate.LeaseHeldError
	if !errors.As(err, &held) || held.Lease.Owner != owner(1) || held.Debate != id || !errors.Is(err, debate.ErrLeaseLost) {
		t.Fatalf("second runner: %v, want *LeaseHeldError naming owner 1", err)
	}
	// The holder acquiring again renews.
	again, err := st.AcquireLease(ctx, id, owner(1), 2*ttl, "")
	if err != nil || again.Expires.Before(l.Expires) || !again.Since.Equal(l.Since) {
		t.Errorf("re-acquire by the holder: %+v (%v), want a later expiry and the same Since", again, err)
	}
	if _, err := st.RenewLease(ctx, id, owner(2).ID, ttl); !errors.Is(err, debate.ErrLeaseLost) {
		t.Errorf("renew by another runner: %v, want ErrLeaseLost", err)
	}
	if r, err := st.RenewLease(ctx, id, owner(1).ID, ttl); err != nil || r.Owner != owner(1) {
		t.Errorf("renew by the holder: %+v (%v)", r, err)
	}
	// Releasing someone else's lease does nothing.
	if err := st.ReleaseLease(ctx, id, owner(2).ID); err != nil {
		t.Errorf("release by another runner: %v, want nil", err)
	}
	if _, err := st.AcquireLease(ctx, id, owner(2), ttl, ""); err == nil {
		t.Fatal("another runner's release freed the lease")
	}
	// Stealing from a holder known dead.
	stolen, err := st.AcquireLease(ctx, id, owner(2), ttl, owner(1).ID)
	if err != nil || stolen.Owner != owner(2) {
		t.Fatalf("steal from owner 1: %+v (%v)", stolen, err)
	}
	if _, err := st.RenewLease(ctx, id, owner(1).ID, ttl); !errors.Is(err, debate.ErrLeaseLost) {
		t.Errorf("the robbed runner renews: %v, want ErrLeaseLost", err)
	}
	if _, err := st.AcquireLease(ctx, id, owner(3), ttl, owner(1).ID); err == nil {
		t.Error("stealing with the id of a runner that no longer holds the lease succeeded")
	}
	// Release frees it.
	if err := st.ReleaseLease(ctx, id, owner(2).ID); err != nil {
		t.Fatal(err)
	}
	if sum, _ := st.Get(ctx, id); sum.Lease != nil {
		t.Errorf("after release Get shows lease %+v", sum.Lease)
	}
	if _, err := st.RenewLease(ctx, id, owner(2).ID, ttl); !errors.Is(err, debate.ErrLeaseLost) {
		t.Errorf("renew after release: %v, want ErrLeaseLost", err)
	}
	if _, err := st.AcquireLease(ctx, id, owner(3), ttl, ""); err != nil {
		t.Errorf("acquire after release: %v", err)
	}
}

// testLeaseExpiry: a lease nobody renews lapses, and another runner takes it;
// its former holder may renew it only while nobody did.
func (s suite) testLeaseExpiry(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const id, ttl = "lapsing", 150 * time.Millisecond
	mustAppend(t, st, id, created(t, id, "council", "lapsing", at(0)))
	if _, err := st.AcquireLease(ctx, id, owner(1), ttl, ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * ttl)
	if sum, err := st.Get(ctx, id); err != nil || sum.Lease == nil || sum.Lease.Live(time.Now()) {
		t.Errorf("Get after expiry: %+v (%v), want the lapsed lease", sum.Lease, err)
	}
	if _, err := st.RenewLease(ctx, id, owner(1).ID, time.Minute); err != nil {
		t.Errorf("renew of a lapsed lease nobody took: %v", err)
	}
	time.Sleep(10 * time.Millisecond)
	if _, err := st.AcquireLease(ctx, id, owner(2), time.Minute, ""); err == nil {
		t.Fatal("a renewed lease was taken")
	}
	if err := st.ReleaseLease(ctx, id, owner(1).ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcquireLease(ctx, id, owner(1), ttl, ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * ttl)
	l, err := st.AcquireLease(ctx, id, owner(2), time.Minute, "")
	if err != nil || l.Owner != owner(2) {
		t.Fatalf("acquire of a lapsed lease: %+v (%v)", l, err)
	}
	if _, err := st.RenewLease(ctx, id, owner(1).ID, time.Minute); !errors.Is(err, debate.ErrLeaseLost) {
		t.Errorf("the lapsed holder renews after another took it: %v, want ErrLeaseLost", err)
	}
}

// testLeaseRace: of many runners racing for one debate, through one store or
// two on a shared database, exactly one wins.
func (s suite) testLeaseRace(t *testing.T) {
	a := s.open(t)
	b := a
	if s.cfg.shared != nil {
		a, b = s.cfg.shared(t)
		t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	}
	const id, runners = "raced", 16
	mustAppend(t, a, id, created(t, id, "council", "raced", at(0)))
	var wg sync.WaitGroup
	wins := make(chan int, runners)
	for i := range runners {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Go(func() {
			_, err := st.AcquireLease(t.Context(), id, owner(i), time.Minute, "")
			switch {
			case err == nil:
				wins <- i
			case !errors.Is(err, debate.ErrLeaseLost):
				t.Errorf("runner %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	close(wins)
	var won []int
	for i := range wins {
		won = append(won, i)
	}
	if len(won) != 1 {
		t.Errorf("runners %v won the lease, want exactly one", won)
	}
}

// testDelete: a deleted debate is gone from Get, Load and List, a second
// delete is ErrNotFound, and the id can start a new debate.
func (s suite) testDelete(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	if err := st.Delete(ctx, "nope"); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("Delete of an unknown debate: %v, want ErrNotFound", err)
	}
	mustAppend(t, st, "gone", created(t, "gone", "council", "gone", at(0)), note(t, "gone", at(1), "x"))
	mustAppend(t, st, "kept", created(t, "kept", "council", "kept", at(2)))
	if _, err := st.AcquireLease(ctx, "gone", owner(1), time.Minute, ""); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, "gone"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := st.Get(ctx, "gone"); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("Get after Delete: %v", err)
	}
	if _, err := st.Load(ctx, "gone", 0); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("Load after Delete: %v", err)
	}
	if sums, _ := st.List(ctx, debate.ListFilter{}); len(sums) != 1 || sums[0].ID != "kept" {
		t.Errorf("List after Delete: %+v", sums)
	}
	if err := st.Delete(ctx, "gone"); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("second Delete: %v, want ErrNotFound", err)
	}
	mustAppend(t, st, "gone", created(t, "gone", "council", "again", at(3)))
	if sum, err := st.Get(ctx, "gone"); err != nil || sum.Topic != "again" || sum.Lease != nil {
		t.Errorf("the id reused: %+v (%v)", sum, err)
	}
}
