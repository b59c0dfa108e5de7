package tool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	// Cache keys use the New York calendar date; embed the zone database so
	// that this works on machines without zoneinfo.
	_ "time/tzdata"

	"github.com/parleyhq/parley/internal/llm"
)

// Cache stores tool results by key. Implementations are safe for concurrent
// use. A miss is (“”, false, nil); an error means the cache itself failed.
type Cache interface {
	Get(ctx context.Context, key string) (value string, ok bool, err error)
	Put(ctx context.Context, key, value string) error
}

// MemoryCache is a Cache held in memory, for one process.
type MemoryCache struct {
	mu sync.RWMutex
	m  map[string]string
}

// NewMemoryCache returns an empty MemoryCache.
func NewMemoryCache() *MemoryCache { return &MemoryCache{m: make(map[string]string)} }

// Get implements Cache.
func (c *MemoryCache) Get(ctx context.Context, key string) (string, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return v, ok, nil
}

// Put implements Cache.
func (c *MemoryCache) Put(ctx context.Context, key, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = value
	return nil
}

// Len is the number of entries.
func (c *MemoryCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// FileCache is a Cache of one file per entry under a directory, so that
// repeat debates on the same day reuse tool data across processes.
type FileCache struct {
	dir string
}

// DefaultCacheDir is os.UserCacheDir()/parley/tools.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the user cache directory (set XDG_CACHE_HOME or HOME, or pass a directory): %w", err)
	}
	return filepath.Join(base, "parley", "tools"), nil
}

// NewFileCache returns a FileCache in dir, creating it; "" means
// DefaultCacheDir().
func NewFileCache(dir string) (*FileCache, error) {
	if dir == "" {
		d, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create tool cache directory: %w", err)
	}
	return &FileCache{dir: dir}, nil
}

// Dir is the cache's directory.
func (c *FileCache) Dir() string { return c.dir }

// fileEntry is what a cache file holds. The key is stored so that a read can
// check it got the entry it asked for.
type fileEntry struct {
	Key    string    `json:"key"`
	Value  string    `json:"value"`
	Stored time.Time `json:"stored"`
}

func (c *FileCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(c.dir, h[:2], h+".json")
}

// Get implements Cache.
func (c *FileCache) Get(ctx context.Context, key string) (string, bool, error) {
	b, err := os.ReadFile(c.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read tool cache: %w", err)
	}
	var e fileEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return "", false, fmt.Errorf("read tool cache entry %s: %w", c.path(key), err)
	}
	if e.Key != key {
		return "", false, nil
	}
	return e.Value, true, nil
}

// Put implements Cache. The entry is written to a temporary file and renamed
// into place, so that readers never see half an entry.
func (c *FileCache) Put(ctx context.Context, key, value string) error {
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("write tool cache: %w", err)
	}
	b, err := json.Marshal(fileEntry{Key: key, Value: value, Stored: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("write tool cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("write tool cache: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write tool cache: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write tool cache: %w", err)
	}
	return nil
}

// Prune removes entries last written before cutoff and reports how many. Keys
// carry their date, so old entries are never read again; this reclaims space.
func (c *FileCache) Prune(ctx context.Context, cutoff time.Time) (int, error) {
	n := 0
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.ModTime().Before(cutoff) {
			if err := os.Remove(p); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("prune tool cache: %w", err)
	}
	return n, nil
}

// CacheZone is the time zone whose calendar date keys the cache: US market
// data changes on New York days.
const CacheZone = "America/New_York"

// CacheStats counts a cached tool's calls.
type CacheStats struct {
	Hits   int64 // answered from the cache (or by an identical call in flight)
	Misses int64 // ran the tool
	Errors int64 // cache reads or writes that failed (the call still ran)
}

// CachedTool is a Tool whose successful results are cached for the rest of
// the New York calendar day. Errors are not cached.
type CachedTool struct {
	t   Tool
	c   Cache
	now func() time.Time
	loc *time.Location
	log *slog.Logger

	hits, misses, errs atomic.Int64

	mu       sync.Mutex
	inflight map[string]*flight
}

type flight struct {
	done chan struct{}
	val  string
	err  error
}

// Cached decorates t with cache c, keyed by the tool's name, its arguments
// (canonical JSON: key order and spacing do not matter) and the New York
// calendar date of now(). A nil now means time.Now.
//
// A hit is reported through ReportCacheHit and counted in Stats. Identical
// calls made while one is running wait for it instead of repeating the work,
// so that two agents researching at once fetch the data once.
func Cached(t Tool, c Cache, now func() time.Time) *CachedTool {
	if now == nil {
		now = time.Now
	}
	loc, err := time.LoadLocation(CacheZone)
	if err != nil {
		// Unreachable with time/tzdata embedded; EST is the honest fallback.
		loc = time.FixedZone("EST", -5*60*60)
	}
	return &CachedTool{t: t, c: c, now: now, loc: loc, log: slog.Default(), inflight: make(map[string]*flight)}
}

// Spec implements Tool.
func (ct *CachedTool) Spec() llm.ToolSpec { return ct.t.Spec() }

// Stats returns the counts so far.
func (ct *CachedTool) Stats() CacheStats {
	return CacheStats{Hits: ct.hits.Load(), Misses: ct.misses.Load(), Errors: ct.errs.Load()}
}

// Key returns the cache key of a call made at time at. Arguments that are not
// valid JSON have no key (ok is false) and are never cached.
func (ct *CachedTool) Key(args json.RawMessage, at time.Time) (key string, ok bool) {
	canon, err := canonicalJSON(args)
	if err != nil {
		return "", false
	}
	return ct.t.Spec().Name + "\n" + at.In(ct.loc).Format(time.DateOnly) + "\n" + canon, true
}

// canonicalJSON re-encodes a JSON value with sorted object keys and no
// insignificant space. Empty and null arguments are the empty object.
func canonicalJSON(raw json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}", nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	if dec.More() {
		return "", errors.New("trailing data after JSON value")
	}
	if v == nil {
		return "{}", nil
	}
	b, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Call implements Tool.
func (ct *CachedTool) Call(ctx context.Context, args json.RawMessage) (string, error) {
	key, ok := ct.Key(args, ct.now())
	if !ok {
		ct.misses.Add(1)
		return ct.t.Call(ctx, args)
	}
	if v, hit, err := ct.c.Get(ctx, key); err != nil {
		ct.errs.Add(1)
		ct.log.WarnContext(ctx, "tool cache read failed", slog.String("tool", ct.t.Spec().Name), slog.String("error", err.Error()))
	} else if hit {
		ct.hit(ctx)
		return v, nil
	}

	ct.mu.Lock()
	if f, running := ct.inflight[key]; running {
		ct.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		if f.err == nil {
			ct.hit(ctx)
			return f.val, nil
		}
		// The first caller failed (perhaps its context ended): try for ourselves.
		ct.misses.Add(1)
		return ct.t.Call(ctx, args)
	}
	f := &flight{done: make(chan struct{})}
	ct.inflight[key] = f
	ct.mu.Unlock()

	ct.misses.Add(1)
	f.val, f.err = ct.t.Call(ctx, args)
	if f.err == nil {
		if err := ct.c.Put(ctx, key, f.val); err != nil {
			ct.errs.Add(1)
			ct.log.WarnContext(ctx, "tool cache write failed", slog.String("tool", ct.t.Spec().Name), slog.String("error", err.Error()))
		}
	}
	ct.mu.Lock()
	delete(ct.inflight, key)
	ct.mu.Unlock()
	close(f.done)
	return f.val, f.err
}

func (ct *CachedTool) hit(ctx context.Context) {
	ct.hits.Add(1)
	ReportCacheHit(ctx)
}
