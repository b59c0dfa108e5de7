package openai_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/openai"
)

// A hostile server that ends every reply with a new finish_reason gets a
// bounded number of warnings (and of reasons remembered), the last saying
// that more are not said; each reason is logged cleaned and cut.
func TestUnknownFinishReasonsAreBounded(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		finish := fmt.Sprintf("word%d", i)
		if i == 1 {
			finish = `\u001b]8;;http://x\u0007` + strings.Repeat("long", 2000)
		}
		sse(chunk(c1)+chunk(c2)+chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+finish+`"}]}`)+done)(w, r)
	}))
	defer srv.Close()
	var logs bytes.Buffer
	p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.URL + "/v1", Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		r, err := ask(p)
		if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
			t.Fatalf("%+v %v", r, err)
		}
	}
	out := logs.String()
	if got := strings.Count(out, "which Parley does not know"); got != 33 {
		t.Errorf("%d warnings for 200 new finish reasons, want 33 (32 and one saying more are not said)", got)
	}
	if got := strings.Count(out, "more unknown finish reasons are not said"); got != 1 {
		t.Errorf("'more unknown finish reasons are not said' %d times, want once", got)
	}
	if strings.Contains(out, "x1b") || strings.Contains(out, "u001b") || strings.Contains(out, "\x1b") {
		t.Errorf("the finish reason's escape reached the log: %.300q", out)
	}
	for line := range strings.Lines(out) {
		if len(line) > 1000 {
			t.Errorf("a warning of %d bytes: the finish reason was not cut", len(line))
		}
	}
}
