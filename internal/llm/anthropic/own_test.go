package anthropic

import "testing"

// Only Anthropic's own API is known to keep reasoning out of the text.
func TestOwnAPI(t *testing.T) {
	for u, want := range map[string]bool{
		"https://api.anthropic.com":         true,
		"https://API.anthropic.com/":        true,
		"http://localhost:8000":             false,
		"https://litellm.example.com/proxy": false,
		"https://api.anthropic.com.evil.io": false,
	} {
		if got := ownAPI(u); got != want {
			t.Errorf("%s: %v, want %v", u, got, want)
		}
	}
}
