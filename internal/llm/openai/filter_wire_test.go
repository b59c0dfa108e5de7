package openai_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A reply a content filter cut (finish_reason content_filter, Gemini's
// SAFETY behind a proxy) is a refusal, as Anthropic's is, and says it was
// a filter that withheld the rest of the reply, not the model that
// declined; the runner records the turn invalid with that reason. A
// refusal in the model's own words carries no such detail.
func TestContentFilterSaysSo(t *testing.T) {
	for _, finish := range []string{"content_filter", "SAFETY"} {
		body := chunk(c1) + chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+finish+`"}]}`) + chunk(use) + done
		r, err := ask(rawServer(t, sse(body)))
		if err != nil || r.Text != "Hel" || r.StopReason != llm.StopRefusal ||
			!strings.Contains(r.StopDetail, strings.ToLower(finish)) || !strings.Contains(r.StopDetail, "content filter withheld") {
			t.Errorf("%s: %+v %v; want a refusal saying a content filter withheld the reply", finish, r, err)
		}
	}
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","refusal":"I can't help with that."}}]}`) + chunk(stop) + done
	if r, err := ask(rawServer(t, sse(body))); err != nil || r.StopReason != llm.StopRefusal || r.StopDetail != "" {
		t.Errorf("the model's refusal: %+v %v", r, err)
	}
}
