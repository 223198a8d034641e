package accounts

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/magneton-games/magneton/server/fair"
)

func TestPasswordHash(t *testing.T) {
	h := HashPassword("correct horse")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("encoding %q", h)
	}
	if h2 := HashPassword("correct horse"); h2 == h {
		t.Error("two hashes of one password are the same: no salt")
	}
	parts := strings.Split(h, "$")
	for _, tc := range []struct {
		name, encoded, password string
		want                    bool
	}{
		{"right", h, "correct horse", true},
		{"wrong", h, "correct horse!", false},
		{"empty password", h, "", false},
		{"not argon2id", strings.Replace(h, "argon2id", "argon2i", 1), "correct horse", false},
		{"other version", strings.Replace(h, "v=19", "v=16", 1), "correct horse", false},
		{"bad parameters", strings.Replace(h, "m=19456", "m=x", 1), "correct horse", false},
		{"zero memory", strings.Replace(h, "m=19456", "m=0", 1), "correct horse", false},
		{"bad salt", strings.Join([]string{"", parts[1], parts[2], parts[3], "!!", parts[5]}, "$"), "correct horse", false},
		{"no hash", strings.Join(parts[:5], "$") + "$", "correct horse", false},
		{"junk", "junk", "correct horse", false},
		{"empty", "", "", false},
	} {
		if got := CheckPassword(tc.encoded, tc.password); got != tc.want {
			t.Errorf("%s: checkPassword = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestHashingBusy: a request that finds every hashing slot taken waits
// hashWait at most, then hears 503 auth_busy; one that finds a slot
// hashes; a slot that frees goes to an address that has not hashed before
// one that has many waiting.
func TestHashingBusy(t *testing.T) {
	a := &Accounts{hashers: fair.New(fair.Options{Slots: 1, PerKey: 1, ByUse: true}), hashWait: 20 * time.Millisecond}
	from := func(ip string) *http.Request {
		r := httptest.NewRequest("POST", "/api/account/login", nil)
		r.RemoteAddr = ip + ":4000"
		return r
	}
	ran := false
	if err := a.hashing(from("10.0.0.1"), func() { ran = true }); err != nil || !ran {
		t.Fatalf("a free slot: %v, ran %v", err, ran)
	}
	hold := make(chan struct{})
	held := make(chan struct{})
	go a.hashing(from("10.0.0.1"), func() { close(held); <-hold }) // every slot busy
	<-held
	start := time.Now()
	err := a.hashing(from("10.0.0.2"), func() { t.Error("hashed without a slot") })
	if !errors.Is(err, errHashBusy) || time.Since(start) > time.Second {
		t.Fatalf("busy slots: %v after %v, want errHashBusy after about 20ms", err, time.Since(start))
	}
	rec := httptest.NewRecorder()
	hashFailed(rec, err)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"auth_busy"`) || rec.Header().Get("Retry-After") == "" {
		t.Errorf("the answer: %d %q, Retry-After %q", rec.Code, rec.Body.String(), rec.Header().Get("Retry-After"))
	}
	gone := from("10.0.0.3")
	ctx, cancel := context.WithCancel(gone.Context())
	cancel()
	if err := a.hashing(gone.WithContext(ctx), func() {}); !errors.Is(err, context.Canceled) {
		t.Errorf("a client gone: %v", err)
	}
	rec = httptest.NewRecorder()
	hashFailed(rec, context.Canceled)
	if rec.Body.Len() != 0 {
		t.Errorf("an answer to a client gone: %q", rec.Body.String())
	}
	// Fairness: 10.0.0.1 holds the slot and has three more waiting; the
	// owner of an account, from elsewhere, comes last and goes first.
	a.hashWait = 10 * time.Second
	order := make(chan string, 4)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() { a.hashing(from("10.0.0.1"), func() { order <- "flood" }) })
	}
	for a.hashers.Waiting() < 3 {
		time.Sleep(time.Millisecond) // until the flood's requests wait
	}
	wg.Go(func() { a.hashing(from("10.0.0.9"), func() { order <- "owner" }) })
	for a.hashers.Waiting() < 4 {
		time.Sleep(time.Millisecond)
	}
	close(hold)
	wg.Wait()
	if first := <-order; first != "owner" {
		t.Errorf("the slot freed went to the %s, want the owner's", first)
	}
}

// TestShortAgent: the browsers' User-Agents in short, and what is kept of
// one it does not read.
func TestShortAgent(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0":                                                                         "Firefox 128, Linux",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87":              "Edge 126, Windows",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15":                          "Safari 17, macOS",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1": "Chrome 126, iPhone",
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36":                                  "Chrome 131, Linux",
		"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 OPR/82.0":                          "Opera 82, Android",
		"curl/8.5.0":                            "curl/8.5.0",
		"":                                      "",
		"a\x00b\nc " + strings.Repeat("x", 100): "abc " + strings.Repeat("x", 36),
	} {
		if got := ShortAgent(ua); got != want {
			t.Errorf("ShortAgent(%q) = %q, want %q", ua, got, want)
		}
	}
}
