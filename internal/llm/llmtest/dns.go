package llmtest

import (
	"context"
	"net"
	"net/http"
	"testing"
)

// DNS response codes (RFC 1035 §4.1.1).
const (
	rcodeServFail = 2 // the name server could not answer: may pass
	rcodeNXDomain = 3 // the name does not exist
)

// resolverClient returns an HTTP client whose host names are looked up,
// by Go's own resolver, on a name server in this test that answers every
// question with rcode: the failures a real network gives, without one.
func resolverClient(t *testing.T, rcode byte) *http.Client {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			// The question echoed, with no answer: the header's ID and
			// question count kept, QR (a response), RD and RA set, and
			// the answer, authority and additional counts zero.
			resp := append([]byte(nil), buf[:n]...)
			resp[2] = 0x80 | buf[2]&0x01
			resp[3] = 0x80 | rcode
			clear(resp[6:12])
			_, _ = pc.WriteTo(resp, from)
		}
	}()
	addr := pc.LocalAddr().String()
	resolver := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
	dialer := &net.Dialer{Resolver: resolver}
	return &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
}
