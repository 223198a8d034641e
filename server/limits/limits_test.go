package limits

import (
	"net"
	"net/http/httptest"
	"testing"
)

// TestTrustedProxies: X-Forwarded-For and X-Forwarded-Proto count only
// from a trusted proxy.
func TestTrustedProxies(t *testing.T) {
	_, proxies, _ := net.ParseCIDR("10.0.0.0/24")
	p := Proxies{proxies}
	for _, tc := range []struct {
		remote, xff, proto string
		ip                 string
		tls                bool
	}{
		{"203.0.113.5:4000", "", "", "203.0.113.5", false},
		{"203.0.113.5:4000", "1.2.3.4", "https", "203.0.113.5", false}, // not a proxy: ignored
		{"10.0.0.7:4000", "1.2.3.4", "https", "1.2.3.4", true},
		{"10.0.0.7:4000", "6.6.6.6, 1.2.3.4, 10.0.0.8", "http", "1.2.3.4", false}, // the last hop not trusted
		{"10.0.0.7:4000", "", "https", "10.0.0.7", true},
		{"[2001:db8:1:2:3:4:5:6]:4000", "", "", "2001:db8:1:2::/64", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if tc.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		if ip, tls := p.ClientIP(r), p.OverTLS(r); ip != tc.ip || tls != tc.tls {
			t.Errorf("%+v: client %s, TLS %v; want %s, %v", tc, ip, tls, tc.ip, tc.tls)
		}
	}
}
