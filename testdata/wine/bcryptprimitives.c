/* A stand-in for Windows' bcryptprimitives.dll, for Wine 8 (Debian 12),
 * which lacks it: Go's runtime (1.22 and later) loads ProcessPrng from it
 * at start-up. Used only by the tests that run trawler.exe under Wine;
 * never shipped. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n)
{
	while (n > 0) {
		ULONG chunk = n > 0x10000000 ? 0x10000000 : (ULONG)n;
		if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			return FALSE;
		data += chunk;
		n -= chunk;
	}
	return TRUE;
}
