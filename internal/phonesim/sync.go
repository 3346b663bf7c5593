package phonesim

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Sync protocol ids (sync v1).
const (
	syncMaxChunk = 64 * 1024
	syncMaxPath  = 1024
)

// serveSync runs the `sync:` service over the virtual filesystem: STAT,
// LIST, RECV, SEND and QUIT, each request an id plus a little-endian
// length.
func (p *Phone) serveSync(s *stream) {
	w := bufio.NewWriterSize(s, syncMaxChunk+8)
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(s, hdr[:]); err != nil {
			return
		}
		id := string(hdr[:4])
		n := binary.LittleEndian.Uint32(hdr[4:])
		if id == "QUIT" {
			return
		}
		if n > syncMaxPath {
			_ = syncFail(w, fmt.Sprintf("path too long: %d bytes", n))
			return
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(s, buf); err != nil {
			return
		}
		arg := string(buf)
		var err error
		switch id {
		case "STAT":
			err = p.syncStat(w, arg)
		case "LIST":
			err = p.syncList(w, arg)
		case "RECV":
			err = p.syncRecv(w, arg)
		case "SEND":
			err = p.syncSend(s, w, arg)
		default:
			_ = syncFail(w, "unknown sync command "+strconv.Quote(id))
			return
		}
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			return
		}
	}
}

func putHeader(w io.Writer, id string, vals ...uint32) error {
	b := make([]byte, 4+4*len(vals))
	copy(b, id)
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4+4*i:], v)
	}
	_, err := w.Write(b)
	return err
}

func syncFail(w *bufio.Writer, msg string) error {
	if err := putHeader(w, "FAIL", uint32(len(msg))); err != nil {
		return err
	}
	if _, err := w.WriteString(msg); err != nil {
		return err
	}
	return w.Flush()
}

func (p *Phone) syncStat(w io.Writer, name string) error {
	p.mu.Lock()
	f, ok := p.lookup(name)
	var mode, size, mtime uint32
	if ok {
		mode, size, mtime = f.mode, uint32(len(f.data)), f.mtime
	}
	p.mu.Unlock()
	return putHeader(w, "STAT", mode, size, mtime)
}

func (p *Phone) syncList(w io.Writer, name string) error {
	type dent struct {
		name              string
		mode, size, mtime uint32
	}
	var ents []dent
	p.mu.Lock()
	if f, ok := p.lookup(name); ok && f.isDir() {
		for _, c := range p.children(name) {
			cf, _ := p.lookup(cleanPath(name) + "/" + c)
			ents = append(ents, dent{c, cf.mode, uint32(len(cf.data)), cf.mtime})
		}
	}
	p.mu.Unlock()
	for _, d := range ents {
		if err := putHeader(w, "DENT", d.mode, d.size, d.mtime, uint32(len(d.name))); err != nil {
			return err
		}
		if _, err := io.WriteString(w, d.name); err != nil {
			return err
		}
	}
	return putHeader(w, "DONE", 0, 0, 0, 0)
}

func (p *Phone) syncRecv(w *bufio.Writer, name string) error {
	p.mu.Lock()
	f, ok := p.lookup(name)
	var data []byte
	dir := false
	if ok {
		data, dir = f.data, f.isDir()
	}
	p.mu.Unlock()
	switch {
	case !ok:
		return syncFail(w, "open failed: No such file or directory")
	case dir:
		return syncFail(w, "read failed: Is a directory")
	}
	for len(data) > 0 {
		n := min(len(data), syncMaxChunk)
		if err := putHeader(w, "DATA", uint32(n)); err != nil {
			return err
		}
		if _, err := w.Write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return putHeader(w, "DONE", 0)
}

// syncSend receives "path,mode" then DATA chunks until DONE(mtime).
func (p *Phone) syncSend(r io.Reader, w *bufio.Writer, arg string) error {
	name, modeStr := arg, "644"
	if i := strings.LastIndexByte(arg, ','); i >= 0 {
		name, modeStr = arg[:i], arg[i+1:]
	}
	mode, err := strconv.ParseUint(modeStr, 10, 32)
	if err != nil {
		mode = 0o644
	}
	var data []byte
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return err
		}
		id, n := string(hdr[:4]), binary.LittleEndian.Uint32(hdr[4:])
		switch id {
		case "DATA":
			if n > syncMaxChunk {
				return syncFail(w, fmt.Sprintf("data chunk too large: %d bytes", n))
			}
			chunk := make([]byte, n)
			if _, err := io.ReadFull(r, chunk); err != nil {
				return err
			}
			data = append(data, chunk...)
		case "DONE":
			p.mu.Lock()
			err := p.writeFile(name, data, uint32(mode), n)
			p.mu.Unlock()
			if err != nil {
				return syncFail(w, "couldn't create file: "+err.Error())
			}
			return putHeader(w, "OKAY", 0)
		default:
			return syncFail(w, "expected DATA or DONE, got "+strconv.Quote(id))
		}
	}
}
