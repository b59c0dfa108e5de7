package websearch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func serve(t *testing.T, file string, check func(*http.Request)) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		check(r)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSearXNG(t *testing.T) {
	srv := serve(t, "searxng.json", func(r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "NVIDIA export controls" {
			t.Errorf("request %s", r.URL)
		}
	})
	s, err := New(Config{SearXNG: srv.URL + "/"})
	if err != nil || s == nil {
		t.Fatal(err)
	}
	res, err := s.Search(context.Background(), "NVIDIA export controls", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].URL != "https://example.com/news/nvidia-export-rules" || res[0].Published != "2026-06-30" || res[1].Published != "" {
		t.Errorf("results = %+v", res)
	}
	if !strings.HasPrefix(s.Name(), "SearXNG at http://127.0.0.1") {
		t.Errorf("name = %q", s.Name())
	}
}

func TestBrave(t *testing.T) {
	srv := serve(t, "brave.json", func(r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != "tok" || r.URL.Path != "/res/v1/web/search" {
			t.Errorf("request %s token %q", r.URL, r.Header.Get("X-Subscription-Token"))
		}
	})
	s, _ := New(Config{BraveKey: "tok", BraveBase: srv.URL})
	res, err := s.Search(context.Background(), "NVIDIA export controls", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Published != "2026-06-30" || res[0].Snippet == "" {
		t.Errorf("results = %+v", res)
	}
}

func TestOffByDefault(t *testing.T) {
	if s, err := New(FromEnv(func(string) string { return "" })); s != nil || err != nil {
		t.Errorf("unset: %v %v", s, err)
	}
	if _, err := New(Config{SearXNG: "localhost"}); err == nil || !strings.Contains(err.Error(), EnvSearXNG) {
		t.Errorf("bad URL: err = %v", err)
	}
}
