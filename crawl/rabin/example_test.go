package rabin_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/trawler/trawler/crawl/rabin"
)

func ExampleFingerprint() {
	fp := rabin.Fingerprint([]byte("http://www.example.com/"))
	fmt.Println(rabin.Hex(fp))
	fmt.Println(rabin.Fingerprint([]byte("abc")) == rabin.Fingerprint([]byte("\x00abc")))
	// Output:
	// 6b080f491ed0b351
	// false
}

func ExampleHex() {
	fmt.Println(rabin.Hex(rabin.Fingerprint(nil)))
	fmt.Println(rabin.Hex(rabin.FingerprintString("abc")))
	// Output:
	// 0000000000000001
	// 0000000001616263
}

func ExampleNew() {
	h := rabin.New()
	io.Copy(h, strings.NewReader("http://www.example.com/"))
	fmt.Println(rabin.Hex(h.Sum64()))
	// Output: 6b080f491ed0b351
}
