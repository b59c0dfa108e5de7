package store

import (
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// Grant decides an AcquireLease at now, given the lease held (nil when none),
// for stores that decide in Go inside their own lock or transaction: it
// returns the lease to store, or *debate.LeaseHeldError. See debate.Store for
// the rules.
func Grant(debateID string, held *debate.Lease, owner debate.LeaseOwner, ttl time.Duration, steal string, now time.Time) (debate.Lease, error) {
	if held != nil && held.Live(now) && held.Owner.ID != owner.ID && (steal == "" || held.Owner.ID != steal) {
		return debate.Lease{}, &debate.LeaseHeldError{Debate: debateID, Lease: *held}
	}
	l := debate.Lease{Owner: owner, Since: now, Expires: now.Add(ttl)}
	if held != nil && held.Owner.ID == owner.ID {
		l.Since = held.Since
	}
	return l, nil
}

// Renew decides a RenewLease at now: the renewed lease, or
// debate.ErrLeaseLost when ownerID does not hold it.
func Renew(held *debate.Lease, ownerID string, ttl time.Duration, now time.Time) (debate.Lease, error) {
	if held == nil || held.Owner.ID != ownerID {
		return debate.Lease{}, debate.ErrLeaseLost
	}
	l := *held
	l.Expires = now.Add(ttl)
	return l, nil
}
