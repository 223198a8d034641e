//go:build abuse

// The abuse suite's attacks on the `magneton serve` process (the server's
// own are in server/abuse_test.go). Run with
//
//	go test -tags abuse -run Abuse -v ./cmd/magneton
package main

import (
	"fmt"
	"net"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestAbuseSlowBody: a request whose body trickles in is cut off by the
// read timeout instead of holding its connection open, and one in flight
// does not stretch the shutdown past its budgets.
func TestAbuseSlowBody(t *testing.T) {
	bin := buildBinary(t)
	p := startServe(t, bin, t.TempDir())
	addr := p.url[len("http://"):]
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", addr)
	start := time.Now()
	closed := make(chan time.Duration, 1)
	go func() {
		buf := make([]byte, 1024)
		for {
			conn.SetReadDeadline(time.Now().Add(time.Second))
			_, err := conn.Read(buf)
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				if _, werr := conn.Write([]byte(" ")); werr != nil {
					closed <- time.Since(start)
					return
				}
				continue
			}
			if err != nil {
				closed <- time.Since(start)
				return
			}
		}
	}()
	select {
	case d := <-closed:
		t.Logf("a body trickling a byte a second was cut off after %v", d.Round(time.Second))
		if d < 15*time.Second {
			t.Errorf("cut off after %v, before the 20 s read timeout", d)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("a slow body held its connection for 40 s")
	}
	// Another slow request in flight at SIGTERM: the server still stops
	// within its budgets (3 s for requests, 5 s for games).
	conn2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	fmt.Fprintf(conn2, "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", addr)
	time.Sleep(200 * time.Millisecond)
	stop := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		t.Logf("SIGTERM with a slow request in flight: stopped in %v", time.Since(stop).Round(time.Millisecond))
		if d := time.Since(stop); d > 9*time.Second {
			t.Errorf("stopping took %v", d)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop within 15 s of SIGTERM")
	}
}

// TestAbuseKills: five SIGKILLs, each in the middle of a burst of moves of
// 16 clients in 8 games, lose no acknowledged move.
func TestAbuseKills(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	acks := newAckLog()
	for kill := range 5 {
		p := startServe(t, bin, dir, "--client-limits", "off")
		var wg sync.WaitGroup
		acks.burst(&wg, p.url, kill*8, 8, 7)
		time.Sleep(3 * time.Second)
		p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
		wg.Wait()
	}
	p := startServe(t, bin, dir)
	total, lost := 0, 0
	for id, want := range acks.seen {
		st := getJSON[gameState](t, p.url+"/api/games/"+id)
		if len(st.Moves) < len(want) || !slices.Equal(st.Moves[:len(want)], want) {
			lost++
			t.Errorf("game %s: %v\nacknowledged: %v", id, st.Moves, want)
		}
		total += len(want)
	}
	t.Logf("5 kills: %d games, %d acknowledged moves, %d games lost a move", len(acks.seen), total, lost)
}
