package edgar

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Limiter spaces requests. *rate.Limiter satisfies it; SharedLimiter spaces
// the requests of every process on the machine that uses the same file.
type Limiter interface {
	// Wait blocks until a request may be sent, or ctx ends.
	Wait(ctx context.Context) error
}

// SharedLimiter keeps the requests of all processes that share its file
// under one rate: the SEC's fair-access limit is per machine (per IP), not
// per process, so three Parley processes must not each send 8 requests a
// second.
//
// The file holds one number, the earliest time (Unix nanoseconds) at which
// the next request may go. A caller takes the file's lock, reserves the slot
// max(now, next), writes slot+interval back, releases the lock and sleeps
// until its slot. Requests from any number of processes are thus spaced at
// least one interval apart, the same schedule a single rate.Limiter with
// burst 1 gives within one process. A reservation is never given back: a
// caller whose context ends after reserving leaves a gap, which only errs
// on the slow side.
//
// On platforms without flock(2) the lock is taken within the process only
// (see lockFile), which still serialises the goroutines of one process.
type SharedLimiter struct {
	path     string
	interval time.Duration
	now      func() time.Time
	mu       sync.Mutex // serialises this process's goroutines before the file lock
}

// NewSharedLimiter returns a limiter of rps requests per second shared
// through the file at path, which it creates (with its directory) if needed.
// rps above MaxRequestsPerSecond, or not positive, means MaxRequestsPerSecond.
func NewSharedLimiter(path string, rps float64) (*SharedLimiter, error) {
	if path == "" {
		return nil, errors.New("edgar: shared rate limit: no file given")
	}
	if rps <= 0 || rps > MaxRequestsPerSecond {
		rps = MaxRequestsPerSecond
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("edgar: shared rate limit file %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("edgar: shared rate limit file %s: %w", path, err)
	}
	f.Close()
	return &SharedLimiter{path: path, interval: time.Duration(float64(time.Second) / rps), now: time.Now}, nil
}

// Path is the shared file.
func (l *SharedLimiter) Path() string { return l.path }

// Wait implements Limiter.
func (l *SharedLimiter) Wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	slot, err := l.reserve()
	if err != nil {
		return err
	}
	d := time.Until(slot)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reserve takes the next free slot under the file lock.
func (l *SharedLimiter) reserve() (time.Time, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return time.Time{}, fmt.Errorf("edgar: shared rate limit: %w", err)
	}
	defer f.Close()
	unlock, err := lockFile(f)
	if err != nil {
		return time.Time{}, fmt.Errorf("edgar: shared rate limit: lock %s: %w", l.path, err)
	}
	defer unlock()

	var buf [8]byte
	now := l.now()
	slot := now
	n, err := f.ReadAt(buf[:], 0)
	switch {
	case n == 8:
		next := time.Unix(0, int64(binary.BigEndian.Uint64(buf[:])))
		// A "next" far in the future is a corrupt file or a clock that
		// jumped back; do not let it stall every process.
		if next.After(now) && next.Sub(now) < time.Minute {
			slot = next
		}
	case err != nil && !errors.Is(err, io.EOF):
		return time.Time{}, fmt.Errorf("edgar: shared rate limit: read %s: %w", l.path, err)
	}
	binary.BigEndian.PutUint64(buf[:], uint64(slot.Add(l.interval).UnixNano()))
	if _, err := f.WriteAt(buf[:], 0); err != nil {
		return time.Time{}, fmt.Errorf("edgar: shared rate limit: write %s: %w", l.path, err)
	}
	return slot, nil
}

// LimitFileName is the shared limiter's file name under a cache directory.
const LimitFileName = "edgar-rate"

// DefaultLimitFile is the shared limiter's file in the user cache directory
// (os.UserCacheDir()/parley/edgar-rate), which every Parley process of the
// user finds.
func DefaultLimitFile() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the user cache directory for the shared EDGAR rate limit (set XDG_CACHE_HOME or HOME): %w", err)
	}
	return filepath.Join(base, "parley", LimitFileName), nil
}
