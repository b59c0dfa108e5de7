package apierr

import (
	"errors"
	"net/http"
	"testing"
)

func TestCheckRedirect(t *testing.T) {
	post := func(url string) *http.Request {
		r, err := http.NewRequest(http.MethodPost, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := post("http://llm.internal:8000/v1/chat/completions")
	get, _ := http.NewRequest(http.MethodGet, "http://llm.internal:8000/v1/chat/completions/", nil)
	for _, c := range []struct {
		name   string
		next   *http.Request
		follow bool
	}{
		{"same server, a slash added, still a POST (307)", post("http://llm.internal:8000/v1/chat/completions/"), true},
		{"https", post("https://llm.internal:8000/v1/chat/completions"), false},
		{"another host", post("http://gpu-2.internal:8000/v1/chat/completions"), false},
		{"another port", post("http://llm.internal:8001/v1/chat/completions"), false},
		{"turned into a GET (301, 302, 303)", get, false},
	} {
		err := CheckRedirect(c.next, []*http.Request{first})
		if followed := err == nil; followed != c.follow || !followed && !errors.Is(err, http.ErrUseLastResponse) {
			t.Errorf("%s: %v, want followed %v", c.name, err, c.follow)
		}
	}
}
