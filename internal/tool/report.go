package tool

import "context"

type cacheReportKey struct{}

// WithCacheReport returns a context in which a caching decorator records
// whether a call was answered from the cache, so that the caller can tell the
// user ("cache hit") without every tool returning the flag.
func WithCacheReport(ctx context.Context, hit *bool) context.Context {
	return context.WithValue(ctx, cacheReportKey{}, hit)
}

// ReportCacheHit records a cache hit in ctx, if the caller asked for reports.
func ReportCacheHit(ctx context.Context) {
	if hit, ok := ctx.Value(cacheReportKey{}).(*bool); ok && hit != nil {
		*hit = true
	}
}
