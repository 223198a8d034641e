package limits

import (
	"net"
	"net/http/httptest"
	"testing"
	"time"
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

// TestAttempts: an attempt holds its place from its start, so that attempts
// made at once are limited as those made one after the other; a refund
// gives the place back; the failures of one name do not stop another.
func TestAttempts(t *testing.T) {
	c := NewClients(Limits{AuthPerMinute: 0.001, AuthBurst: 3, FailuresPerMinute: 0.001, FailuresBurst: 2})
	var held []*Attempt
	for i := range 2 {
		a, wait := c.StartAuth("1.2.3.4", "ann")
		if a == nil {
			t.Fatalf("attempt %d for ann refused (wait %v)", i+1, wait)
		}
		held = append(held, a)
	}
	if a, wait := c.StartAuth("1.2.3.4", "Ann"); a != nil || wait <= 0 {
		t.Errorf("a third attempt for ann while two run: %v, wait %v", a, wait)
	}
	held[0].Refund() // a login that succeeded
	if a, _ := c.StartAuth("1.2.3.4", "ann"); a == nil {
		t.Error("no attempt after a refund")
	}
	// The address's burst (3) is spent with bob's: another name waits too.
	if a, _ := c.StartAuth("1.2.3.4", "bob"); a == nil {
		t.Error("bob's attempt refused: ann's failures stopped another name")
	}
	if a, _ := c.StartAuth("1.2.3.4", "cy"); a != nil {
		t.Error("an attempt over the address's burst")
	}
	if a, _ := c.StartAuth("5.6.7.8", "ann"); a == nil {
		t.Error("another address was limited")
	}
	free := NewClients(NoLimits)
	for range 100 {
		if a, _ := free.StartAuth("1.2.3.4", "ann"); a == nil {
			t.Fatal("an attempt refused without limits")
		}
	}
}

// TestSlowBuckets: the requests for reset mails are limited per address
// and the mails per account, each on its own; an idle client's sweep
// keeps a bucket that is not full again; no limits are none.
func TestSlowBuckets(t *testing.T) {
	c := NewClients(Limits{ResetsPerHour: 1, ResetsBurst: 2, AccountResetsPerHour: 1, AccountResetsBurst: 1, ExportsPerHour: 1, ExportsBurst: 1})
	for i, want := range []bool{true, true, false} {
		if got := c.AllowReset("1.2.3.4"); got != want {
			t.Errorf("request %d from one address: %v, want %v", i+1, got, want)
		}
	}
	if !c.AllowReset("5.6.7.8") || !c.AllowAccountReset("ann") || c.AllowAccountReset("ann") || !c.AllowAccountReset("bob") {
		t.Error("the buckets of other addresses and accounts are not their own")
	}
	c.Sweep(time.Now().Add(time.Hour)) // every client idle
	if c.AllowReset("1.2.3.4") || c.AllowAccountReset("ann") {
		t.Error("the sweep of idle clients gave a new burst")
	}
	if !c.AllowExport("1.2.3.4") || c.AllowExport("1.2.3.4") {
		t.Error("the downloads of data")
	}
	free := NewClients(NoLimits)
	for range 100 {
		if !free.AllowReset("1.2.3.4") || !free.AllowAccountReset("ann") || !free.AllowExport("1.2.3.4") {
			t.Fatal("a request refused without limits")
		}
	}
}
