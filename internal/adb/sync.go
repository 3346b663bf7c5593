package adb

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
)

// MaxSyncData is the largest DATA chunk the sync protocol allows.
const MaxSyncData = 64 * 1024

// FileInfo is what sync STAT reports about a path on the phone.
type FileInfo struct {
	Mode    uint32 // unix st_mode, type bits included
	Size    uint32 // sync v1 reports 32 bits
	ModTime time.Time
}

// IsDir reports whether the path is a directory.
func (f FileInfo) IsDir() bool { return f.Mode&0o170000 == 0o040000 }

// IsRegular reports whether the path is a regular file.
func (f FileInfo) IsRegular() bool { return f.Mode&0o170000 == 0o100000 }

// Perm returns the permission bits.
func (f FileInfo) Perm() fs.FileMode { return fs.FileMode(f.Mode & 0o777) }

// syncConn is a connection switched to the sync service.
type syncConn struct {
	*conn
	hdr [8]byte
}

func (c *Client) openSync(ctx context.Context, serial string) (*syncConn, error) {
	nc, err := c.OpenService(ctx, serial, "sync:")
	if err != nil {
		return nil, err
	}
	return &syncConn{conn: nc.(*conn)}, nil
}

// request writes an 8-byte sync request (id + little-endian length) and its data.
func (s *syncConn) request(id string, data []byte) error {
	var h [8]byte
	copy(h[:4], id)
	binary.LittleEndian.PutUint32(h[4:], uint32(len(data)))
	if _, err := s.Write(append(h[:], data...)); err != nil {
		return err
	}
	return nil
}

// header reads an 8-byte sync reply header.
func (s *syncConn) header() (string, uint32, error) {
	if _, err := io.ReadFull(s, s.hdr[:]); err != nil {
		return "", 0, err
	}
	return string(s.hdr[:4]), binary.LittleEndian.Uint32(s.hdr[4:]), nil
}

// failure reads a FAIL message of n bytes.
func (s *syncConn) failure(op, path string, n uint32) error {
	if n > MaxSyncData {
		return &ProtocolError{Service: "sync:" + op, Detail: fmt.Sprintf("FAIL message of %d bytes", n)}
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(s, msg); err != nil {
		return err
	}
	fe := &FailError{Service: "sync:" + op + " " + path, Message: string(msg)}
	if strings.Contains(strings.ToLower(fe.Message), "no such file") {
		return fmt.Errorf("%w (%w)", fe, fs.ErrNotExist)
	}
	return fe
}

func (s *syncConn) quit() {
	_ = s.request("QUIT", nil)
	s.Close()
}

// Stat returns the mode, size and modification time of a path on the
// phone. A path that does not exist yields an error wrapping fs.ErrNotExist.
func (c *Client) Stat(ctx context.Context, serial, path string) (FileInfo, error) {
	s, err := c.openSync(ctx, serial)
	if err != nil {
		return FileInfo{}, err
	}
	defer s.quit()
	if err := s.request("STAT", []byte(path)); err != nil {
		return FileInfo{}, s.wrap("sync:STAT", err)
	}
	var r [16]byte
	if _, err := io.ReadFull(s, r[:]); err != nil {
		return FileInfo{}, s.wrap("sync:STAT", err)
	}
	if string(r[:4]) != "STAT" {
		return FileInfo{}, &ProtocolError{Service: "sync:STAT", Detail: fmt.Sprintf("reply %q", r[:4])}
	}
	fi := FileInfo{
		Mode:    binary.LittleEndian.Uint32(r[4:]),
		Size:    binary.LittleEndian.Uint32(r[8:]),
		ModTime: time.Unix(int64(binary.LittleEndian.Uint32(r[12:])), 0),
	}
	if fi.Mode == 0 && fi.Size == 0 && fi.ModTime.Unix() == 0 {
		return FileInfo{}, fmt.Errorf("adb: stat %s on %s: %w", path, serial, fs.ErrNotExist)
	}
	return fi, nil
}

// PullTo copies a file from the phone into w and returns the bytes copied.
func (c *Client) PullTo(ctx context.Context, serial, remote string, w io.Writer) (int64, error) {
	s, err := c.openSync(ctx, serial)
	if err != nil {
		return 0, err
	}
	defer s.quit()
	if err := s.request("RECV", []byte(remote)); err != nil {
		return 0, s.wrap("sync:RECV", err)
	}
	return s.recv(remote, w)
}

// recv reads a RECV reply: DATA chunks until DONE, or FAIL.
func (s *syncConn) recv(remote string, w io.Writer) (int64, error) {
	var total int64
	buf := make([]byte, MaxSyncData)
	for {
		id, n, err := s.header()
		if err != nil {
			return total, s.wrap("sync:RECV "+remote, err)
		}
		switch id {
		case "DATA":
			if n > MaxSyncData {
				return total, &ProtocolError{Service: "sync:RECV", Detail: fmt.Sprintf("DATA chunk of %d bytes", n)}
			}
			if _, err := io.ReadFull(s, buf[:n]); err != nil {
				return total, s.wrap("sync:RECV "+remote, err)
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return total, fmt.Errorf("adb: pulling %s: writing: %w", remote, err)
			}
			total += int64(n)
		case "DONE":
			return total, nil
		case "FAIL":
			return total, s.wrap("sync:RECV", s.failure("RECV", remote, n))
		default:
			return total, &ProtocolError{Service: "sync:RECV", Detail: fmt.Sprintf("reply %q", id)}
		}
	}
}

// Pull returns the contents of a file on the phone.
func (c *Client) Pull(ctx context.Context, serial, remote string) ([]byte, error) {
	var b bytes.Buffer
	if _, err := c.PullTo(ctx, serial, remote, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Push writes the contents of r to a file on the phone with the given
// permission bits and modification time, in DATA chunks of at most
// MaxSyncData bytes.
func (c *Client) Push(ctx context.Context, serial, remote string, mode fs.FileMode, mtime time.Time, r io.Reader) error {
	s, err := c.openSync(ctx, serial)
	if err != nil {
		return err
	}
	defer s.quit()
	// The phone expects st_mode in decimal, file type bits included.
	spec := fmt.Sprintf("%s,%d", remote, 0o100000|uint32(mode.Perm()))
	if err := s.request("SEND", []byte(spec)); err != nil {
		return s.wrap("sync:SEND", err)
	}
	buf := make([]byte, MaxSyncData)
	for {
		n, rerr := io.ReadFull(r, buf)
		if n > 0 {
			if err := s.request("DATA", buf[:n]); err != nil {
				return s.wrap("sync:SEND "+remote, err)
			}
		}
		if errors.Is(rerr, io.EOF) || errors.Is(rerr, io.ErrUnexpectedEOF) {
			break
		}
		if rerr != nil {
			return fmt.Errorf("adb: pushing %s: reading: %w", remote, rerr)
		}
	}
	var done [8]byte
	copy(done[:4], "DONE")
	binary.LittleEndian.PutUint32(done[4:], uint32(mtime.Unix()))
	if _, err := s.Write(done[:]); err != nil {
		return s.wrap("sync:SEND "+remote, err)
	}
	id, n, err := s.header()
	if err != nil {
		return s.wrap("sync:SEND "+remote, err)
	}
	switch id {
	case "OKAY":
		return nil
	case "FAIL":
		return s.wrap("sync:SEND", s.failure("SEND", remote, n))
	}
	return &ProtocolError{Service: "sync:SEND", Detail: fmt.Sprintf("reply %q", id)}
}

// PushFile is Push with the local file's contents, mode and time.
func (c *Client) PushFile(ctx context.Context, serial, local, remote string) error {
	f, err := os.Open(local)
	if err != nil {
		return fmt.Errorf("adb: push: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("adb: push: %w", err)
	}
	return c.Push(ctx, serial, remote, st.Mode(), st.ModTime(), f)
}
