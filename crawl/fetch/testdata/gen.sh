#!/bin/sh
# Regenerates the legacy-charset pages with iconv, an encoder independent of
# the Go decoder under test. Run from this directory.
set -e
printf '%s' '<html><head><meta charset="gbk"><title>网络爬虫测试页面——中文标题</title></head><body><p>正文：抓取与解析。</p></body></html>' | iconv -f UTF-8 -t GBK > gbk_meta.html
printf '%s' '<html><head><title>网络爬虫测试页面——中文标题</title></head><body><p>正文：抓取与解析。</p></body></html>' | iconv -f UTF-8 -t GBK > gbk_plain.html
printf '%s' '<html><head><meta http-equiv="Content-Type" content="text/html; charset=gb2312"><title>简体中文页面</title></head><body>内容</body></html>' | iconv -f UTF-8 -t GB2312 > gb2312_http_equiv.html
printf '%s' '<html><head><meta charset="big5"><title>網路爬蟲測試頁面</title></head><body><p>繁體中文內容。</p></body></html>' | iconv -f UTF-8 -t BIG5 > big5_meta.html
