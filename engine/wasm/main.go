//go:build js && wasm

// Command wasm is the browser's engine: package engine compiled to
// WebAssembly (GOOS=js GOARCH=wasm) and run in a Web Worker,
// web/static/engine/worker.js, which loads it with Go's wasm_exec.js.
// It sets globalThis.magnetonEngine to an object whose handle(op, json,
// progress) answers one request of engine.Session (docs/engine-worker.md)
// with a Promise of the answer's JSON, or rejects it with the refusal's
// JSON ({"error", "code", "vars"}); progress(kind, json) hears the
// request's reports before the answer; addBook(name, bytes) reads a
// certificate file of the server's book. Then it calls
// globalThis.magnetonReady() and waits for requests for ever.
//
// web's go generate step (web/internal/buildengine) builds it into
// web/static/engine/engine.wasm.gz.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/magneton-games/magneton/engine"
	"github.com/magneton-games/magneton/server/wire"
)

// hashMB is each table of the browser's engine: as the server's level 8.
const hashMB = 16

func main() {
	s := engine.NewSession(hashMB)
	handle := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 2 {
			return reject(wire.Refusef("handle(op, json, progress): %d arguments", len(args)))
		}
		op, req := args[0].String(), args[1].String()
		var progress js.Value
		if len(args) > 2 && args[2].Type() == js.TypeFunction {
			progress = args[2]
		}
		return promise(func() (string, error) {
			out, err := s.Handle(context.Background(), op, []byte(req), func(kind string, v any) {
				if !progress.IsUndefined() {
					b, _ := json.Marshal(v)
					progress.Invoke(kind, string(b))
				}
			})
			if err != nil {
				return "", err
			}
			b, err := json.Marshal(out)
			return string(b), err
		})
	})
	// addBook(name, bytes): a gzipped certificate file of the server's
	// book (engine.Session.AddBook), a Promise of "".
	addBook := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) < 2 {
			return reject(wire.Refusef("addBook(name, bytes): %d arguments", len(args)))
		}
		name := args[0].String()
		data := make([]byte, args[1].Get("length").Int())
		js.CopyBytesToGo(data, args[1])
		return promise(func() (string, error) { return `""`, s.AddBook(name, data) })
	})
	js.Global().Set("magnetonEngine", map[string]any{"handle": handle, "addBook": addBook})
	if ready := js.Global().Get("magnetonReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// promise runs work in a goroutine and is a Promise of its answer.
func promise(work func() (string, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(this js.Value, args []js.Value) any {
		resolve, rejectFn := args[0], args[1]
		go func() {
			defer executor.Release()
			defer func() {
				if p := recover(); p != nil {
					rejectFn.Invoke(refusalJSON(wire.Refusef("the engine failed: %v", p)))
				}
			}()
			out, err := work()
			if err != nil {
				rejectFn.Invoke(refusalJSON(err))
				return
			}
			resolve.Invoke(out)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// reject is a Promise rejected with err's JSON.
func reject(err error) js.Value {
	return js.Global().Get("Promise").Call("reject", refusalJSON(err))
}

// refusalJSON is an error as the server's API answers it.
func refusalJSON(err error) string {
	var rf wire.Refusal
	if !errors.As(err, &rf) {
		rf = wire.Refusal{Msg: err.Error()}
	}
	b, _ := json.Marshal(rf.JSON("error"))
	return string(b)
}
