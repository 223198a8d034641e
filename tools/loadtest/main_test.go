package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain runs the test binary as a server child when -computer's run
// starts it again as one.
func TestMain(m *testing.M) {
	if childMode() {
		return
	}
	os.Exit(m.Run())
}

// TestComputerGames: a few games against the computer each way, played to
// the end on a server child of their own, whose CPU is measured; the
// "browser's" computer costs the server less than its own.
func TestComputerGames(t *testing.T) {
	var out bytes.Buffer
	res, err := runComputer(context.Background(), computerConfig{Games: 3, Level: 5, Game: "magneton", Parallel: 3}, &out)
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Games != 3 || r.Moves < 6 || r.ComputerMoves < 3 || r.ServerCPU <= 0 || r.Errors != 0 {
			t.Errorf("the computer on the %s: %+v", r.Place, r)
		}
	}
	if res[1].perGame() >= res[0].perGame() {
		t.Errorf("the server's CPU a game: %v with the browser's computer, %v with its own", res[1].perGame(), res[0].perGame())
	}
	if !strings.Contains(out.String(), "browser / server") {
		t.Errorf("the output lacks the ratio:\n%s", out.String())
	}
}

func TestSmallLoad(t *testing.T) {
	var out bytes.Buffer
	res, err := run(context.Background(), config{Games: 3, Spectators: 1, Rate: 40, Duration: 1500 * time.Millisecond, Game: "magneton", Setup: 3}, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out.String())
	if res.Moves < 10 || res.Ack.N == 0 || res.Broadcast.N == 0 || res.Errors != 0 || res.Dropped != 0 {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(out.String(), "p99=") {
		t.Errorf("output lacks the percentiles:\n%s", out.String())
	}
}

func TestLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:2", "http://127.1.2.3:9"} {
		if err := checkLoopback(u); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1:8080", "http://192.168.1.1", "http://example.com", "https://127.0.0.1", "http://8.8.8.8"} {
		if err := checkLoopback(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	if _, err := run(context.Background(), config{URL: "http://10.1.2.3:80", Games: 1, Rate: 1, Duration: time.Second}, &bytes.Buffer{}); err == nil {
		t.Error("run accepted a non-loopback target")
	}
}
