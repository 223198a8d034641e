package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// botAccount signs an account up on a serve process, makes it a bot and
// returns an API token of it.
func botAccount(t *testing.T, base, name string) string {
	t.Helper()
	c := newCrashClient()
	var out map[string]any
	if err := c.post(base+"/api/account/signup", fmt.Sprintf(`{"name": %q, "password": "long enough"}`, name), &out); err != nil {
		t.Fatal(err)
	}
	if err := c.post(base+"/api/account/bot", `{"confirm": true}`, &out); err != nil {
		t.Fatal(err)
	}
	var tk struct{ Token string }
	if err := c.post(base+"/api/account/tokens", `{"label": "test"}`, &tk); err != nil || tk.Token == "" {
		t.Fatalf("token: %+v %v", tk, err)
	}
	return tk.Token
}

// botProc is a magneton bot child process.
type botProc struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	done   chan error
}

func startBot(t *testing.T, bin, base, token string, args ...string) *botProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"bot", "--server", base, "--token", token}, args...)...)
	p := &botProc{cmd: cmd, stderr: &bytes.Buffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	go func() { p.done <- cmd.Wait() }()
	return p
}

func (p *botProc) wait(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("magneton bot: %v\n%s", err, p.stderr)
		}
	case <-time.After(d):
		t.Fatalf("magneton bot did not end within %s:\n%s", d, p.stderr)
	}
}

// TestBotProcesses: two magneton bot processes play a rated game through
// a magneton serve process, one with an engine of another process
// (ugi:, the binary's own magneton ugi), the other challenging it; both
// end after it, and the game rated them in the bots' pool.
func TestBotProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and plays a game")
	}
	bin := buildBinary(t)
	srv := startServe(t, bin, t.TempDir(), "--max-plies", "100")
	a := botAccount(t, srv.url, "engine-a")
	b := botAccount(t, srv.url, "engine-b")
	pa := startBot(t, bin, srv.url, a, "--engine", "ugi:"+bin+" ugi", "--quit-after", "1", "--games", "magneton")
	pb := startBot(t, bin, srv.url, b, "--engine", "level:2", "--quit-after", "1",
		"--challenge", "engine-a", "--challenge-clock", "0.2+0", "--challenge-rated", "--challenge-rules", "standard")
	pa.wait(t, 90*time.Second)
	pb.wait(t, 10*time.Second)
	for _, want := range []string{"challenge accepted", "playing", "engine=ugi:"} {
		if !strings.Contains(pa.stderr.String(), want) {
			t.Errorf("bot a's log lacks %q:\n%s", want, pa.stderr)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.url+"/api/users/engine-a", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p struct {
		Bot     bool `json:"bot"`
		Ratings []struct {
			Family string
			Games  int
		} `json:"ratings"`
	}
	json.NewDecoder(resp.Body).Decode(&p)
	if !p.Bot || len(p.Ratings) != 1 || p.Ratings[0].Family != "bot-standard" || p.Ratings[0].Games != 1 {
		t.Errorf("engine-a's profile: %+v", p)
	}
}
