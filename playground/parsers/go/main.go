// Command goparse is Go's net/http parser for the playground's compare view, built with
// GOOS=js GOARCH=wasm. It reads a stream of HTTP/1.1 messages the way a Go server
// (http.ReadRequest) or client (http.ReadResponse) does, over one bufio.Reader, and reports
// what it read as JSON through the global function httpspanGoParse(mode, bytes, method), where
// method (responses) is the method of the requests answered, or one per request separated by
// commas.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"syscall/js"
)

// countingReader counts the bytes bufio has taken from the input, so that the offset of the
// next unread byte is count - Buffered().
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

type message struct {
	Method     string      `json:"method,omitempty"`
	Target     string      `json:"target,omitempty"`
	Status     int         `json:"status,omitempty"`
	Version    string      `json:"version"`
	Headers    [][2]string `json:"headers"`
	Trailers   [][2]string `json:"trailers"`
	Framing    string      `json:"framing"`
	BodyLength int         `json:"bodyLength"`
	// Body is the body as read (chunked decoded); JSON carries it in base64.
	Body      []byte `json:"body"`
	KeepAlive bool   `json:"keepAlive"`
	Upgrade   bool   `json:"upgrade"`
	Offset    int    `json:"offset"`
	End       int    `json:"end"`
	Complete  bool   `json:"complete"`
}

type parseError struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
	Offset int    `json:"offset"`
}

type result struct {
	Status   string      `json:"status"`
	Messages []message   `json:"messages"`
	Error    *parseError `json:"error"`
	Consumed int         `json:"consumed"`
}

// fields lists a header map's lines; Go keeps no order across names, so they are sorted by
// name (values of one name keep their order).
func fields(h http.Header) [][2]string {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	out := [][2]string{}
	for _, name := range names {
		for _, v := range h[name] {
			out = append(out, [2]string{name, v})
		}
	}
	return out
}

// framing names how net/http delimits the body it chose.
func framing(te []string, length int64, isResponse bool) string {
	for _, t := range te {
		if strings.EqualFold(t, "chunked") {
			return "chunked"
		}
	}
	if length > 0 {
		return "content-length"
	}
	if length < 0 && isResponse {
		return "until-close"
	}
	return "none"
}

func truncated(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// methodFor is the method of the request the next final response answers: methods holds one per
// request in order (a comma-separated list of tokens), the last repeating past its end, and
// finals counts the final responses read so far (a 1xx other than 101 answers no request).
func methodFor(methods []string, finals int) string {
	if finals >= len(methods) {
		return methods[len(methods)-1]
	}
	return methods[finals]
}

func parse(mode string, input []byte, method string) result {
	methods := strings.Split(method, ",")
	finals := 0
	counter := &countingReader{r: bytes.NewReader(input)}
	br := bufio.NewReader(counter)
	offset := func() int { return counter.n - br.Buffered() }
	res := result{Status: "complete", Messages: []message{}}
	fail := func(err error) {
		if truncated(err) {
			res.Status = "partial"
			return
		}
		res.Status = "error"
		res.Error = &parseError{Code: "error", Reason: err.Error(), Offset: offset()}
	}
	for {
		if _, err := br.Peek(1); err != nil {
			break
		}
		start := offset()
		var m message
		var body io.ReadCloser
		var trailer func() http.Header
		var closes bool
		if mode == "request" {
			req, err := http.ReadRequest(br)
			if err != nil {
				fail(err)
				break
			}
			// net/http moves Host out of the header map; it is shown with the other fields.
			header := req.Header.Clone()
			if req.Host != "" {
				header.Set("Host", req.Host)
			}
			m = message{Method: req.Method, Target: req.RequestURI, Version: req.Proto,
				Headers: fields(header), Framing: framing(req.TransferEncoding, req.ContentLength, false),
				KeepAlive: !req.Close}
			body, trailer, closes = req.Body, func() http.Header { return req.Trailer }, req.Close
		} else {
			resp, err := http.ReadResponse(br, &http.Request{Method: methodFor(methods, finals)})
			if err != nil {
				fail(err)
				break
			}
			m = message{Status: resp.StatusCode, Version: resp.Proto, Headers: fields(resp.Header),
				Framing: framing(resp.TransferEncoding, resp.ContentLength, true), KeepAlive: !resp.Close,
				Upgrade: resp.StatusCode == 101}
			body, trailer, closes = resp.Body, func() http.Header { return resp.Trailer }, resp.Close || resp.StatusCode == 101
			if resp.StatusCode >= 100 && resp.StatusCode < 200 && resp.StatusCode != 101 {
				// An interim response: ReadResponse reports its length as unknown (-1), but it has
				// no body, and Go's Transport reads the next response on the connection after it.
				m.Framing = "none"
			} else {
				finals++
			}
		}
		m.Offset = start
		var read bytes.Buffer
		n, err := io.Copy(&read, body)
		m.BodyLength = int(n)
		m.Body = read.Bytes()
		m.Trailers = fields(trailer())
		if err != nil {
			res.Messages = append(res.Messages, m)
			fail(err)
			break
		}
		m.Complete = true
		m.End = offset()
		res.Messages = append(res.Messages, m)
		if closes || m.Framing == "until-close" {
			break
		}
	}
	res.Consumed = offset()
	if res.Status == "complete" && len(res.Messages) > 0 && !res.Messages[len(res.Messages)-1].KeepAlive {
		res.Consumed = res.Messages[len(res.Messages)-1].End
	}
	return res
}

func main() {
	js.Global().Set("httpspanGoParse", js.FuncOf(func(this js.Value, args []js.Value) any {
		input := make([]byte, args[1].Get("length").Int())
		js.CopyBytesToGo(input, args[1])
		out, _ := json.Marshal(parse(args[0].String(), input, args[2].String()))
		return string(out)
	}))
	js.Global().Set("httpspanGoVersion", runtime.Version())
	select {}
}
