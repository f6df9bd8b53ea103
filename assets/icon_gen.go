//go:build ignore

// Command icon_gen draws Trawler's icon, assets/icon.png:
//
//	go run assets/icon_gen.go assets/icon.png
package main

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
)

// Draws Trawler's icon: a trawl net (a web of rings and spokes) on a deep
// sea-blue rounded square, supersampled 4x for smooth edges.
func main() {
	const size, ss = 512, 4
	const S = size * ss
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	cx, cy := float64(S)/2, float64(S)*0.56
	inside := func(x, y float64) bool { // rounded square
		r := float64(S) * 0.18
		m := float64(S) * 0.04
		lo, hi := m, float64(S)-m
		if x < lo || x > hi || y < lo || y > hi {
			return false
		}
		dx := math.Max(math.Max(lo+r-x, x-(hi-r)), 0)
		dy := math.Max(math.Max(lo+r-y, y-(hi-r)), 0)
		return dx*dx+dy*dy <= r*r
	}
	net := func(x, y float64) bool {
		dx, dy := x-cx, y-cy
		d := math.Hypot(dx, dy)
		R := float64(S) * 0.36
		if d > R+float64(S)*0.012 {
			return false
		}
		a := math.Atan2(dy, dx)
		w := float64(S) * 0.011
		// spokes
		for k := 0; k < 10; k++ {
			ang := float64(k) * math.Pi / 5
			da := math.Abs(math.Remainder(a-ang, 2*math.Pi))
			if d*math.Sin(da) < w && math.Cos(da) > 0 {
				return true
			}
		}
		// polygonal rings
		for ring := 1; ring <= 4; ring++ {
			rr := R * float64(ring) / 4
			seg := math.Pi / 5
			da := math.Remainder(a, seg)
			// distance to chord of polygon
			dist := d*math.Cos(da) - rr*math.Cos(seg/2)
			if math.Abs(dist) < w*0.9 {
				return true
			}
		}
		return false
	}
	float := func(x, y float64) bool { // a float on a line above the net
		fx, fy := cx, float64(S)*0.16
		if math.Hypot(x-fx, y-fy) < float64(S)*0.045 {
			return true
		}
		return math.Abs(x-cx) < float64(S)*0.009 && y > fy && y < cy-float64(S)*0.36
	}
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var bg, fg, fl, tot float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x, y := float64(px*ss+sx)+0.5, float64(py*ss+sy)+0.5
					tot++
					if !inside(x, y) {
						continue
					}
					switch {
					case float(x, y):
						fl++
					case net(x, y):
						fg++
					default:
						bg++
					}
				}
			}
			t := float64(py) / size
			bgc := [3]float64{20 + 10*t, 70 - 30*t, 140 - 50*t}
			fgc := [3]float64{235, 245, 255}
			flc := [3]float64{255, 140, 40}
			a := (bg + fg + fl) / tot
			if a == 0 {
				continue
			}
			var c [3]float64
			for i := range c {
				c[i] = (bgc[i]*bg + fgc[i]*fg + flc[i]*fl) / (bg + fg + fl)
			}
			img.SetNRGBA(px, py, color.NRGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), uint8(a * 255)})
		}
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := png.Encode(f, img); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
}
