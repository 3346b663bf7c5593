package adb

import (
	"context"
	"errors"
	"io"
)

// ExecInto is Exec for large output (a raw screencap is 4 bytes a pixel,
// 10 MB at 1080×2400), read into buf's capacity from its start: a buffer
// reused from the last capture costs no allocation, no zeroing and no
// copying as it grows. Output longer than buf still arrives whole, in a
// larger buffer.
func (c *Client) ExecInto(ctx context.Context, serial, cmd string, buf []byte) ([]byte, error) {
	service := "exec:" + cmd
	nc, err := c.OpenService(ctx, serial, service)
	if err != nil {
		return nil, err
	}
	cn := nc.(*conn)
	defer cn.Close()
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := cn.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, cn.wrap(service, err)
		}
	}
}
