package anthropic_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// An OpenAI-compatible server's content_filter, passed through by a proxy
// as the stop_reason, is a refusal that says a filter withheld the reply;
// the API's own refusal says only what its stop_details say.
func TestContentFilterSaysSo(t *testing.T) {
	r, err := ask(rawServer(t, sse(start+text+delta("content_filter")+stopEv)))
	if err != nil || r.StopReason != llm.StopRefusal || !strings.Contains(r.StopDetail, "content_filter") || !strings.Contains(r.StopDetail, "content filter withheld") {
		t.Errorf("%+v %v; want a refusal saying a content filter withheld the reply", r, err)
	}
	if r, err := ask(rawServer(t, sse(start+text+delta("refusal")+stopEv))); err != nil || r.StopReason != llm.StopRefusal || r.StopDetail != "" {
		t.Errorf("the API's refusal: %+v %v", r, err)
	}
}
