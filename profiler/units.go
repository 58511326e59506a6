package profiler

import (
	"fmt"
	"strings"
	"time"
)

// byteSize renders a size in bytes with binary units, e.g. "64 MiB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// duration renders nanoseconds with three significant digits and a human
// unit: "48.2s", "4.71ms", "812µs", "95ns", "1m02s" beyond a minute.
func duration(ns float64) string {
	d := time.Duration(ns)
	switch {
	case ns >= float64(time.Minute):
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int((d%time.Minute)/time.Second))
	case ns >= float64(time.Second):
		return sig3(ns/1e9) + "s"
	case ns >= float64(time.Millisecond):
		return sig3(ns/1e6) + "ms"
	case ns >= float64(time.Microsecond):
		return sig3(ns/1e3) + "µs"
	}
	return fmt.Sprintf("%.0fns", ns)
}

// sig3 formats a value in [1, 1000) with three significant digits.
func sig3(v float64) string {
	switch {
	case v >= 99.95:
		return fmt.Sprintf("%.0f", v)
	case v >= 9.995:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// percent renders a share in [0, 1] as a percentage, e.g. "77.1%".
func percent(share float64) string {
	return fmt.Sprintf("%.1f%%", 100*share)
}

// count renders an integer with thousands separators, e.g. "45,123".
func count(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// oneLine joins the lines of a multi-line message with "; ".
func oneLine(s string) string {
	var parts []string
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, "; ")
}
