package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/textsafe"
)

// heartbeat is how often an idle event stream is written a comment, which
// keeps it open through proxies (Server.heartbeat, but for tests).
const heartbeat = 15 * time.Second

// apiEvents streams a debate's events as server-sent events: the event's
// sequence number is its id, so a client that reconnects with Last-Event-ID
// (or ?after=N) gets the log from there, then every new event as it is
// appended, by this process or any other on the same database. The stream
// ends after the debate completes or fails.
func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	after, from := int64(0), "after"
	// The error names what the client sent: an EventSource sends the
	// header by itself, a script the parameter.
	for _, p := range [][2]string{{"Last-Event-ID", r.Header.Get("Last-Event-ID")}, {"after", r.URL.Query().Get("after")}} {
		name, v := p[0], p[1]
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("%s %q: give the sequence number of the last event received", name, clip(v)))
			return
		}
		after, from = n, name
		break
	}
	sum, err := s.app.Store.Get(r.Context(), id)
	if err != nil {
		writeAppError(w, err)
		return
	}
	// A debate that has ended gets no new events: a client that already
	// has them all (an EventSource reconnecting after the last one, curl
	// with Last-Event-ID) is told so with 204, which stops an EventSource
	// from reconnecting, instead of being held open for ever; one that
	// lacks some gets them, then the end of the stream.
	// An event the log does not hold yet cannot have been received (an
	// append updates the summary with it): a stream from there would skip
	// the events up to it without a word, or wait for ever.
	if after > sum.LastSeq {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%s %d: debate %s has %d events so far; give the sequence number of the last event received (0 for all)", from, after, id, sum.LastSeq))
		return
	}
	ended := sum.Status == debate.StatusCompleted || sum.Status == debate.StatusFailed
	if ended && after >= sum.LastSeq {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method != http.MethodHead {
		if s.streams.Add(1) > int64(s.conn.Streams) {
			s.streams.Add(-1)
			s.streamsRefused.Add(1)
			w.Header().Set("Retry-After", "10")
			writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("this server holds %d event streams, as many as it takes: reconnect in a while, or follow the debate with GET /api/debates/%s meanwhile", s.conn.Streams, id))
			return
		}
		defer s.streams.Add(-1)
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		// HEAD asks for the headers alone: the stream of a running
		// debate would never end.
		return
	}
	var mu sync.Mutex // the heartbeat and the events share the writer
	write := func(b []byte) error {
		mu.Lock()
		defer mu.Unlock()
		// Each write has its own deadline, not the stream as a whole: a
		// client that stops reading (its buffers full) is cut after
		// StreamWrite, instead of holding this goroutine, its heartbeat's
		// and its connection for as long as it stays connected.
		_ = rc.SetWriteDeadline(time.Now().Add(s.conn.StreamWrite))
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := write([]byte("retry: 2000\n\n")); err != nil {
		return
	}
	// The heartbeat stops, and is waited for, before the handler returns:
	// the request's context ends only after, and a beat in between wrote
	// to a response no longer the handler's (net/http forbids it: the
	// connection may be serving its next request).
	ctx, stop := context.WithCancel(r.Context())
	var beats sync.WaitGroup
	defer beats.Wait()
	defer stop()
	beats.Go(func() {
		t := time.NewTicker(s.heartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if write([]byte(": keep-alive\n\n")) != nil {
					return
				}
			}
		}
	})
	var buf []byte
	for e, err := range s.hub.follow(ctx, id, after) {
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, errTooSlow) {
				s.log.Warn("event stream", "id", id, "err", err)
			}
			return
		}
		buf = appendSSE(buf[:0], e)
		if write(buf) != nil {
			return
		}
		if e.Type == debate.TypeCompleted || e.Type == debate.TypeFailed || (ended && e.Seq >= sum.LastSeq) {
			return
		}
	}
}

// appendSSE appends one event in the server-sent events format. The data
// is the event as JSON on one line (JSON never holds a raw newline).
func appendSSE(b []byte, e debate.Event) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, e.Seq, 10)
	// No "event:" field: every event arrives as a message whose data
	// names its type, format events (format.*) included.
	b = append(b, "\ndata: "...)
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, e.Seq, 10)
	b = append(b, `,"time":"`...)
	b = e.Time.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","type":`...)
	b = strconv.AppendQuote(b, e.Type)
	b = append(b, `,"data":`...)
	switch {
	case len(e.Data) == 0:
		b = append(b, "null"...)
	case bytes.ContainsAny(e.Data, "\r\n"):
		// A data line ends at a newline: compact JSON has none.
		var c bytes.Buffer
		if json.Compact(&c, e.Data) != nil {
			b = append(b, "null"...)
		} else {
			b = append(b, textsafe.InertJSON(c.Bytes())...)
		}
	default:
		// Inert for a terminal (curl) as the API's other answers are.
		b = append(b, textsafe.InertJSON(e.Data)...)
	}
	return append(b, "}\n\n"...)
}

func (s *Server) now() time.Time {
	if s.app.Env.Now != nil {
		return s.app.Env.Now()
	}
	return time.Now()
}
