"""What serving many servers costs the Discord stand-in: ``python tests/standin_scale.py
10000 4`` builds 10,000 servers (``guild_range``), sends them to 4 shards (one websocket
each, as ``wordlebot run`` shards connect, READY and every GUILD_CREATE read), and prints the
time of each step and the stand-in's memory (its process's resident set, the clients'
included: they only count frames)."""

import asyncio
import resource
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).parent))
from discord_server import DiscordServer, guild_range


def resident_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


async def shard(server: DiscordServer, number: int, count: int) -> int:
    """Identify as one shard and count the GUILD_CREATEs until every server of it came."""
    expected, created = len(server.guilds_of(number)), 0
    async with aiohttp.ClientSession() as session, session.ws_connect(
        f"ws://127.0.0.1:{server.port}/gateway", max_msg_size=0
    ) as ws:  # fmt: skip
        await ws.receive()
        identify = {"token": "t", "intents": 513, "shard": [number, count], "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        while created < expected:
            message = await ws.receive()
            created += '"t":"GUILD_CREATE"' in message.data
    return created


async def main(servers: int, shards: int) -> None:
    before = resident_mib()
    started = time.perf_counter()
    server = DiscordServer(guild_range(servers, shards=shards), shards=shards, validate=False)
    await server.start()
    built = time.perf_counter() - started
    started = time.perf_counter()
    got = await asyncio.gather(*(shard(server, n, shards) for n in range(shards)))
    sent = time.perf_counter() - started
    after = resident_mib()
    await server.stop()
    assert sum(got) == servers, got
    print(
        f"{servers:,} servers: built in {built:.3f} s, sent to {shards} shards in {sent:.2f} s "
        f"({servers / sent:,.0f} GUILD_CREATE/s); resident memory {before:.0f} -> "
        f"{after:.0f} MiB (+{after - before:.0f} MiB, "
        f"{(after - before) * 2**20 / servers / 1024:.1f} KiB a server)"
    )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
