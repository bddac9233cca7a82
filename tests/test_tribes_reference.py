"""Tribes against the Java reference (GAIGResearch/Tribes release 1.0).

The fixtures were produced by running the reference itself (built from its 1.0 sources):

* ``_JAVA_LEVELS``: maps its level generator writes for four seeds (three of the paper's
  tournament seeds for Xin-Xi and Imperius on 11×11, and seed 999 for Oumaji, Bardur, Imperius
  and Xin-Xi on 16×16). Our generator must write the same maps, tile for tile.
* ``_TRACES``: three random games played by the reference's game loop (two 2-player games and a
  4-player one; the random player never examines ruins, whose outcome depends on the engine's
  random generator). For every decision the trace holds the action played, the number and a CRC
  of the sorted names of the legal actions, and the mover's stars and score. Replaying the
  actions here must give the same legal actions, stars and score at every decision. The
  reference was run with the bug fixes listed on the docs page applied where they change play
  (Altar of Peace once, captured buildings, Super unit of a full city, destroyed temples).
* ``_RUINS_TRACES``: three short reference games whose agent examined ruins whenever it could
  (``benchmarks/tribes_reference``, issue 15), replayed with the reference's own generator
  (``java.util.Random``, emulated) so that every ruins bonus comes out as in the reference; they
  check the units as well.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import sys
import zlib
from pathlib import Path
from types import ModuleType

import pytest

from stratagem.envs.tribes import constants as C
from stratagem.envs.tribes.levelgen import generate_level, parse_level
from stratagem.envs.tribes.rules import TribesGame

_JAVA_LEVELS = {
    1590191438878: (
        "d:,d:,d:,s:,f:a,f:,f:,.:,f:,.:c,.:r\n"
        "d:,d:,d:,s:,f:,s:,s:,d:w,s:h,f:a,.:\n"
        "d:,d:w,d:w,s:h,.:,.:f,.:f,c:1,f:,m:o,.:r\n"
        "s:,d:,d:,s:,.:f,f:a,.:f,m:,m:,m:,.:c\n"
        "s:,d:,d:,d:,s:,f:,.:c,f:,f:,f:,.:\n"
        "s:,d:,d:w,d:w,s:h,m:o,f:,m:,v:,s:,d:w\n"
        "s:,d:,d:,d:,d:w,s:h,.:,m:,s:,d:,d:\n"
        "s:,d:,d:,d:,d:w,s:,f:a,.:c,f:a,s:h,d:\n"
        "s:,d:,d:r,d:w,d:w,s:,f:,.:c,c:0,m:,.:\n"
        "s:,d:,d:,d:w,s:,f:,m:,.:c,f:a,f:a,f:\n"
        "s:,d:,d:,d:,s:,.:,m:,f:a,f:,.:,.:f\n"
    ),
    1590791907337: (
        ".:,f:,s:,d:,s:,d:,d:,d:,s:h,f:a,f:\n"
        ".:f,f:,s:h,d:,d:w,d:,d:,d:,s:,.:f,f:\n"
        "f:,.:c,s:h,d:,d:r,d:,d:,d:,s:h,m:o,.:f\n"
        "f:a,m:,c:0,s:h,d:,d:,d:,s:,.:f,.:c,.:r\n"
        ".:f,.:,m:,f:a,s:,d:w,s:,.:f,c:1,m:o,.:\n"
        "m:,.:f,.:,m:,m:,v:,s:h,s:w,d:,s:h,.:r\n"
        "f:a,v:,f:a,.:c,.:,.:f,f:a,s:h,d:w,d:,s:h\n"
        "f:a,m:,f:a,s:,s:,d:,.:,f:a,s:,d:w,d:\n"
        ".:f,s:h,d:,d:,d:,d:,d:,s:,s:h,d:,d:\n"
        "f:a,s:,d:w,d:w,s:,d:,d:,d:,d:w,d:,d:\n"
        "m:,.:f,.:f,s:h,m:,s:,s:,s:,d:,d:,d:\n"
    ),
    1591330872230: (
        "f:,s:h,d:,d:,d:,d:,s:,.:c,.:f,m:o,f:\n"
        ".:,s:,d:w,d:,d:,s:,.:f,s:h,.:,v:,f:\n"
        "s:h,d:,d:w,d:,d:,d:,c:1,.:f,s:,s:h,f:a\n"
        "d:,d:w,s:h,s:,s:h,d:,d:,s:,d:,d:,s:h\n"
        "d:,d:,d:w,s:,s:,d:,d:,d:,d:,d:,s:h\n"
        "d:,d:,s:,.:,s:h,d:,d:,d:r,d:,s:,f:a\n"
        "s:,.:f,m:o,m:,.:,s:,d:,d:,d:,s:,.:f\n"
        "m:o,v:,f:a,.:c,.:,s:,d:,d:,d:,s:h,m:\n"
        "m:,m:o,f:,.:r,f:,c:0,s:,d:w,d:,s:,m:o\n"
        ".:,f:,.:,f:,f:,f:a,m:o,.:,f:a,.:c,.:\n"
        ".:,f:,m:,m:o,f:,m:,f:,.:,f:,m:,f:\n"
    ),
    999: (
        "f:a,m:o,.:,.:c,.:,m:,m:,.:f,s:,d:w,d:,d:,d:,d:,s:h,.:\n"
        "s:,s:h,.:f,.:f,f:a,v:,f:a,f:a,s:,d:,d:,d:,d:w,d:,s:,.:f\n"
        "s:,f:a,c:2,.:f,.:f,s:h,d:,.:f,f:a,s:h,d:w,d:w,d:,s:h,.:f,.:f\n"
        "s:,f:a,s:,s:h,s:,d:,d:,d:,s:h,f:,.:f,s:,m:,.:,.:,m:o\n"
        "s:,s:r,d:,d:,d:,d:,d:w,d:,s:,s:,.:,.:,m:o,.:,v:,.:f\n"
        "d:,d:,d:,d:,d:w,s:,s:h,s:h,d:,d:r,d:w,s:h,.:,.:c,s:h,d:\n"
        "d:,d:w,d:,d:,d:,s:h,f:,s:,d:,d:,d:,s:,m:,s:h,d:w,d:\n"
        "d:,d:,d:w,d:,d:,s:h,s:h,d:,d:,d:w,d:,s:,m:,c:3,.:f,s:\n"
        "s:,s:,d:,d:w,d:,s:,s:,d:,d:,d:,d:w,s:h,.:c,.:f,.:f,.:\n"
        ".:f,s:,d:,d:w,d:,s:,.:f,s:,d:w,d:,s:,.:c,m:o,.:,.:,.:r\n"
        "f:,s:h,d:w,d:,d:w,c:1,f:a,.:r,f:r,m:,.:f,f:a,.:,v:,.:,.:r\n"
        ".:f,s:,d:w,d:w,d:w,s:h,.:f,f:a,.:f,f:,m:,.:c,f:,.:,.:,.:c\n"
        ".:c,s:,d:,d:,d:,s:,f:,.:,v:,.:c,f:,f:a,s:h,s:,s:,s:\n"
        "m:,s:,d:,d:,d:,d:,s:,.:f,.:,.:c,.:,c:0,d:w,d:,d:,d:\n"
        "m:,s:,d:,d:,d:,d:,d:w,s:,f:,f:a,s:,d:w,d:w,d:,d:,d:\n"
        "m:,.:c,s:,d:,d:,d:,d:,s:,f:,m:,s:,d:,d:,d:,d:,d:\n"
    ),
}


_TRACES = (
    "eNqdfdmOJUdy5a80+DQE7gC+L3qYH2k0iCQru5nTxSpOVlVTmoH+fc4xdw9f4xYlSegWkFZxI9xtObb/9f/98PH1X68ff/ry"
    "+vrhh3/TPiudtbMpxfT44ev728+vX374tx/+/e3TT//+9nj77ffX97dvX354/PDh9Ze3L2+fP+Gvf/3rD799/tfrX/6HecQf"
    "/+f/wn+lH394aPXwTmWTjfUP/K/2f3v89Yf31y+vL++//PrTr98+fX379I8fHumhTcramjjSvX768NPXb++f8BzzMF6FlHNU"
    "qhP8+vL+r9cvX/mjAb8WHtZ7bWzUJj9MI2qvlcprRRBavBi+0Vh86gPPM2p6rd/ePslbafcwLoeoNZ74iPMDU3lglgemhwkm"
    "JHxlVA+9vZ6V1/MPm62NLlmn+XrlV8vJf/v9p5//Ut/OPFwMRlmL0+PLLWfhHlb5GJLz3vHvYXipXA4/t8M3RuuEu8wW37yd"
    "Kn7O+6SSD7r/ebrF8uLTL9r2i19+f/nj009/vLy/v31+7+9urYpJB+tCJ20vN5wYzhanb0OIOboDa3x+/8fLp7f/+/IV7CU3"
    "mxTuzOIqOnF5LN9RXtXjsfgNHJjyKuKtfXx2dNffp6NL5e2mo7tYafnkJMc8nqLZvuPvb19+LcyU8Hsu6hiDJy/Fu9MGq9no"
    "bQLjGfnteH/c+aGj88kZh4ea/YMjPhifDBYOwktpYuA4XYcLyjh8h7Dm9hzDS1XBZ9P/Pp1/EUENJndGxRidEl5Jt5+pHg6i"
    "ap311qyUvEx5Ju8UH2EgrDkFHzrhJVy63oKGBMbslEnr06qoputLdYi4LZ8CmcDcyQ+eo2KGHCa/0pn2zbFcGPg9qohXTKTM"
    "aqT05ZsdKTX+D9LvVY4b5cTH+GYwadY+4nAWwipHOED5cDwzR5uCzQlyMr1mmtQBOMQ7nbxySXfKXRnzvD11WcIVhvWyXflw"
    "V37aGqh3yEmI5On5w0c7AK5yxkPHd7Lrh//49eVjEREPwqCglCHC6/NsO8hQrsZp7bzJRd8WwlGzwXgZCqWL/e/lQXJu5fxy"
    "ORawoMs+FI1ldo1VGYcHbYPyKaqB8uLDLI8D07uojM4GEmmfS4oOGppexRB3rnGd/8EpMEA5wxSFTjhqNWd0ylZY320fmwcW"
    "CJDjoBXuS0TOqo1XYjMdMQfoqlRMQyG8PrUQwYp6raFfXHKd6LJnL11B4uW9yHDiZdg7QTJUCTFZ/KpzB0Z5f/tQ+AR3ao0N"
    "NuTkO10/EahFo8BHRjtRV+vfwY4Oog3hgsz4VRf7zuGiizOsunPRkjKrRffEgjsoVj7T+vvttfkfr+//gadZKoqsHI4gkwFW"
    "SpiK148fvgilzSbpqDJuKq/MUfi38ps2MKNgJC1XeiuCqxG/e0mDvwaYn5Ahg3m1kVUeRHAiQU/yGh8U+cSRMjbKVNER0Buk"
    "tfx03HCIidEEwgG7PkgX/oWUq/qbiqKQlKVqWj7i75/x/36tR22oRfBqcaD85SMIK9lf6sEkyn/AvWQxkYeTLtyJb/RgOR61"
    "7Uw1yWvR8pB7nDIFw6ROOOiJpraVyVAnHtp4wQOpfHSqH407BliEqvVG0E9Sm227xNaEEJzCWZpOWaBDueEmlPgjUIMLugDu"
    "pG50PHlWTsdZnTpzHwy6CB1ABPRu7IT9lsMDbxVwNNkfhOTvL++/iXBDCWhD+BhSubjpXHAgos3awdCowPhEU+7OHw6m6m6j"
    "CF9gFfRKOfEqjCTEHVYfT14Jp1uGnMCcAhBB3Xsw0fpBv3x8++3n9kVWW2AwS0FJ8xGq+knVGOG0Da4l4zXdKs4XQKjID1IP"
    "vZr1ShebJg/F8tqkIV/4cYEx+eTDtN92AFARWj2tlLm+ZhF9L5Lvgolqo7Tl113hcmo8aGpCR9XFsH167nqMwBGWKeQYj6J9"
    "+WS4Sai6oKyGgQ07m/ECNXQSUIRd5TmNxpA+IhQd3KyUy7X4o7WhQlQE0MAmvtO1s5Y7CeWsob1gUxRwjiu3Mp1g7lyWCYec"
    "s1SznXDUiDAl0NU62fU5rtyZLQKPf42jhXwGa3d+cbMlw31B6OGArpSXks2iDzUUCOBEjHklDOVzC2sRtsPKKkf8KWb4xvUx"
    "AWwIn8AmvGwnPHmFAEVOO2Bfi39knnArASWssgeh64QDQskFeXhviDxi7ET9Bd9fX3/68vvb+9tX0OJrMvEOkIVdWdW2Q68w"
    "Bd8NrwsWzawsptpRpqJ2cN4ZbhUs0W5cXGF/JxCCBgjAMedON/CDKecCwIIrBypX6iBxsXCEgcOCDzZO7/c8cgSuAqJuTeIH"
    "rV+ROkP4R4Y2hv7cEUYeBQqWBB6QA4/BF8IFTS9ZPavmtIAjcCpGC+peSC+Zat9DmwuEq4eHdsgk1/cNHsSX34qPQ9QKjONU"
    "p375+vXll3/+RR55nRSZI+GhvB7A0ukVXDNsQuhpZnDXHup25YzLJvjqS2h4TnDclX6u7nDJcH1zyHCod233/vmFMNDT8OsE"
    "PRE2luxeYH1HePrAzXR58O+mrwmLQdD0YQwt7ErZfKNqEcBAYI4ME3PR/eP98x8XgEoNGOFXk4MLEjvhz9/ePn6QD+GnS3gO"
    "GgrSyvhAPhi3ODgCkFajvIZ8R7/6b3byqBmVg9FIUM6bo9cOXMAC+EjDtJtk9UpYGS41hiOcphJniGLl4jy6jgBmjlgZrqhe"
    "SeVi5ChraNJSCdg4yu94Rr7AD0/PBN8NlBt2rzB21c8IFqCesyq4FY7qaq2riwC5cRk2Ed/eKcffJjeSEPeNq1GBEnTymwLj"
    "phAEaD+/qrPZ04RtwCECIaiUDlI7a14cDvEJnEmddr0RylOrfBkiBB+BVPCCE2VqAbwCRl1R/WCjlVCPKtqDgQQwWDNot5l5"
    "hX9cJvAIwEcuxZ17B/sAL9sBwQLMGGKqRvnh7cvPL58+/KVy7nSW+vzDvD0rQWgYTphjcSfSbSjIQs4UbLG2PP5dVb68lTgL"
    "IDD0BO5HrGxYjzFMuBlsm0BGs7RcjB/Z22kaL0Bx0wnHj6khcP1gsBL6TI4w3ZkciQQleN5wfyVmkHZVYZuJJVqAQktar5QV"
    "CRdLQiyqAJNot+0u2KMKgBKLNO7RqYNYj3oXXAhBBf+k/Zlqcl3x6ZrR38hIHSU7ncRQ5BXIJzGaY7PXZ8rCQs4Qb2Z4XZSy"
    "izWGOAd+0wqPAf+o+WyqUfAlIRKhJQwAGtREl8Dyi/TM/lLxmWWExiX8j3aDqI45jEPMB3ev1SEqWUEkEKRhdCCKfXd+16EN"
    "NeAT4S3Dh3Ouk45vWbk2MvwX8HI4oYvu7AVDmcBjNY4QKHg/ogU/8hmD3jjpkBKTLiHuwl+iCR4uuFNgCWrwzuOX8Ddtgv/O"
    "8HC9IzK0pzsuKAXir6nmHR5oJWdxYht5Ji7HhqwgCYwFmUZ60KP0FZxPISnet58/x08gifF8uI/B5OhXyo4WaoxXO4ApD4wa"
    "O2k7TTfFg+HF2cyMQk4D7XVKqYUzLACQVcAqplMdszBkdQAQKA28AHWa97s+jdVriaKoYGclRaVunBH6SURfLkM0YFFC8BtC"
    "9CVBhhuAAdN0xDbKNB4SnUkDs6QBEV2nPEWwBFZlZQD7/frMqnyr3ZYAEWAIcKdmZLqSlm//+O23n1/ff/r124XXAGLgvmde"
    "VCf+jgjrdvhzBK1qQTwHzot3SVEFa2XU+fcLrGToi04rPH2a/ot+fnSJaEG/Zkf7DKYuj775tApuSQ+fNAO++fJovz86tXQs"
    "PFco+eCVPNqqLemsMxx0+oRWHmYPitjXWJDWcIUTwAmFNByMeSquI0EE/u68+LdhB9XlS4JmGCwkDxDBYI9aQvD15JlJhiIB"
    "JPGB4Z35HeezF4iQqE7wRSExJ0N6f+ekQVJSZGQ7SKIZanrSEkPgA9/PtJICiPEb5eyoSAoiKgvgLPHWmVYYuhCXNI/G18Xs"
    "4YAOtBsP1vg2vAULZa/1LW0NHAKuAFHBmfZezsAd+a8AG4hqZjQyRzlet1/YJdnw/AzMTjAC7tyWk+LxJBWpKK+/zxo/FJxi"
    "XQQjhVg8+LDAuN/evpZQPfkWapwxO8X6hO0sQ1dmfCoO0qRkbTyd++j3RQYsYUmgUfJGW2NARfMxBKtiSh63pE+PHRKQzGnm"
    "xAxtdE9uqFrb66w65cj8xeLhPRmIiVo8m0b3nRSUPHBQI7+/vP/zp89/5yt8/fbp9eIoGlHKlqVPz39lzXqlNGMauhRcl7rc"
    "LwE/iaEw4hcYlk/MbMFa+I2PqoQA8zHLqBSxdCedxM43NzlYBuBwqPzESnlZ0dwcWu+ys6b4D/Pz8hj7ph0BsAODeHFxYKRu"
    "tG19VVgPqBGPdx3JD5xKn1sn5S3wk4QKw50YOS/JIsuUNuU/WnUT05fYMv1aaySc0EiH6yEgkicVkNUoZr3sC7I0jugl6+wO"
    "MtfiMbagNrjxnsrg+MSiOKBZGFjWsB+WrDF/iB8dE8/6AWBQ+JbUjhfpgIbELcDB4W5yBBgcqMafNlUsGOKB2k7Qs7ZczF16"
    "IDOUafGoZEUrRfOnZLJTzl9e4+r4cvpPOajh1+d7wY86A62hu9hcp/3p5V9v/2iVP1AwVuEK+Slp+5TRa6ObkQB6AdmGF5y8"
    "nVA/Gr/M/DGjrZ3yJqbIPEHSxuKGbOy8OzORePSRWgZfjasMw7vOeKEYIKY86f0zVktrMb1sGm+IGewM0JAYrBVGMidlXKGt"
    "BlqlV2/DQDrbmPxjDbk4uD6077eUvtoNMFJWUH5FfZwoa3GB1WROgC5zkKFfPn8Csv32S71X8ADLW3KCZyFq7nixzSCmBG9B"
    "QUCphyvpByLlz/8xYL8EJ1IrlU9EHX8AKHugCl+UetxqDSG5McFnNrH8/SBmrdRJMy4MiKbOoK87O0C6uBPyhdkO5rfXD29f"
    "K7tHKn+JowBxyLHoPTZT+F10FvM5MYFH9EV6ffFV9nN9jl6e50cnhglHpj1tZuEhSZWfnpdqsQM0j4G/oX06URWjw5A5q/Bi"
    "KC5BVOuVCXqFIBILMwJAqpC3OyuFJuQ/bb08KqQdWGkfGPaSLzRP6uWYwQB7ahgYtzl/c7WUhIEj3JpQvtNEf4N+6aaC0ARi"
    "kYF0OJKSjDq95vAZzLTDHfGWCsyt7vtop4nPFEyGVGit7zbhM9YOMYAHj8gOlFP4oBoN1kzZBPsWBKIcAg25OTvwh01SGS6M"
    "n1/TTLEDcJGH8846SlEIcQ9Peegr+Gv9r6fENKu9gtaBLHB3Fb5lxR28ixjsdBMjrzhFgGOT3m/1ClH4eh5ANt5ZxkhCe7+9"
    "YEGKiVIwHlo3dcIDCOSHaAWUBIdKHT5kMlHM90Ff4IA2yqtEqSX4YRwg465U+caDGvJVDcHkwujB814PfGIafnpImYlTvzHN"
    "y8evgAaAy7+/vvzSajIkUAS15VNKJpjtjdOc/LYAW4EBzjhI/VQPZFh+GIHIBoKZaV2FgGAgp4ABfReZgcMYtIeWhqdn7RoS"
    "m5mMriEgC+CVscOPTkxWTCK1Y0rwjgCbzh8gUNOz3Hd8VNFIH17/DsLXXjENJQhxkkrY3OVp/thWqIiPZdW0JGfSqYzOtYuG"
    "RmWmJK5Vvz2DVa6NgATcC/Vl1PbZrjBatw9GXK3Kk/+de6uFo8y9ZhZqGxNuqoQr/IC50ayG4WFKeP9UjxNaeaYB7oSfpTrl"
    "YL1aBRlOhjII/XV3z/6CChrwmFXnoxxs8eEKpAFQMlxhY46ahzWL/GNibcgqH3Ysg6SSsxmGHcdYMgX+7krwCrCdzpWoU/J7"
    "UlHk+cGIPXx0qzrZdG0h49ZgJtTKWFpdJVctL+MZ6+O33muwooo9eIE1++FwdmFEHjgw2Ai4qCAeaCfvsCg7y9QIm0SgF8X4"
    "3JaX0/EJTGjASoYuBGsBYLhYwjgbKIGLvPixKps2w0hwJinTj+oINfD7KjDMDIy2nuqVkG8JZ1YXwHkxu1XIcymgklJJB68h"
    "3zFRzQ0xBKVYEu+87zVEQxLSV1+NsX2GrfJaaVTPs2ofZrBhzENOJQ+RttywSc5DsevKZdVc/oJnvV+ZGXGEI4TZKn+wEiOv"
    "4XY9RMZapTdY9+WPz+8fvvz28qmdtmPQzJCHgcaJXg4FjYUxCIO1gxdrGYyFHzKfy6VrJSmc6SRcRLPPU/TnKDuHQi5eLiwz"
    "U5n2idi7yrEwKRl2oHjFh7swDdLzE/AsrQfKs33x5C64eqykcGvx2ljynVidAbQGnTe+6RBNyvccOB5NasVwJrIQFYhSoqwm"
    "nGRVUtyZhsOwyr1kUfWp2rmcd2B5k0qZlY876VCfqSX6H1m7KgGYiTJORWcMR7ASKkK4H2p5U1sEsN63E4uRnVNQ0OCz6akT"
    "nxFvuBxZzMbIzUzZCjRqwIZxxMQ3dewguWgvrPn1/eXDa8t1a8NgjV8fOcfuJXWG64R58Kp909/+87F3+sUM3yAyKNw7/X5+"
    "ef/w7f3x+dtvL//77abPD59Xv6DVCRBEKK9zb9BaFCP/iQT12YLCSmp76vXDKXooeUAs3Rso9qJC1vMATWcAQKlLNupQI1ky"
    "7xKizp5JcjUT1o8AsmnlPMrnAPaSJ951chkGhAII209PjK3LT5c8g4a9hy5Sdmjlu8LYvlVZGc9WKFz+0BfYD4SljtSYzvdn"
    "tO+05cdMlUwHz4fhPNebtK5fKx8ZmXjFdeO19N7JpcpplFOzdAJwclHefcuO4edwCClIPcP2pIE52JMHPyobyThNTSeu/aJu"
    "/ZHEC0k089p0YuX9oYxTYjeBcp1mTF6WwzAMueRAppRLt9PLjdVRpTQ8wyNTYz/Ywrqu5piyZsiO9Qdu75KD2wT+iTqGKGdr"
    "p6sa+ILusPFwVWGg89rxUDlIVw6yCd6lJTjohEe5YvAPZlyX5qT7Hgr8oAUUBFtKSqu+5XDMNeTioRMTkfxFM+ZVXMur0LTh"
    "0sS72lNeLP2GnOiKLHfRs030DCBVIjeZE0alPjMB35cBFFdMrOYLtZQnMC7cAamaTHeF+bTNuC8Hfzh0wlETGagN/DnEvJYW"
    "6Yca1B8T4BHARvzQ2N7u3JeiHS4dQhpcp2xHMohz6T7kkUS9Oj6ToAZxcQObtn0nnJzRwO4waN2wPmjprmF0BFwNFgp57Qq5"
    "dGrBZrAudOCNHjpSbpp32egGxmRo1q5PndSltMQx+JmUHrhgxuyVYWAbsmfWUZmVHWbL5B/0LNgUI1fszyVxfJ5i/6itnUWn"
    "ny4a1EmUX7Nxb/MWJn3GeB6bPlTcPYALVdS8Gy4IKDIMhWEza5uWuNZi/qE47Ep66Q3dulwVW82YkvfrW+rBbOgH4KsrKUz/"
    "hM+SqFRoVBU73dYtwSBBZGERD3xz0FqvS0M90BzJMWnOYu2Vi3o3HJAWREYDz3WyA1dO8nooh2P2AoYWODPk5+pIslZ0Plzp"
    "SJtlRpcbKcoUzADfWuYS2CfMgHOBQgrKeqP2budcnphrRCbhZ4kv8kF9TaWzLDVVECtmR2InXtVi5R0Pj4Y1N3mtBZwZgg1x"
    "NIlQPl0S2g2qgcdoxRwbhlz98Wct/HTu4Dtm+A2hE0+R2QAnBRft9zhP7pesCargU3lGrboMDA5c0WWanpkBWNA6nPxVqjC8"
    "D5W2tMqF/YqLCS59vwCQMEBp1zW2A8jAqBZLGZVWT5USUzKMWyZ2RZ0jMpF3wILx/vdDwzRteaJug5gz4hJOXNV0O76CIcuc"
    "hiEOg9mvziKwjWb7RL6d9OCu6giLA9TM9FJi/FLK1jq2OKMA5kmz21lC/qPHCKLXlpQE8lAWOMfb0Jty++Nevv76iv94++WL"
    "BBAhyDgf4DG/mtHLNNfvNsCKit3MelfXtgs99JshsrPgrE44MkySklxYyP05gxYiVLHaQTJU5byDCrRXU0JwBNHa6E66OvIN"
    "fEr7lkspqP2xo1zSGWO+DJBE77pmYFjIpKWHiseqw2SFwqyBaUHIktW+00z9dgDaUIBGAp97sXtunZqabXnsifVr/1KzcS3E"
    "CDgeDQ3DoTXmGlPADuoEJeVjzmtzTL0Q11qks/NAPy64vUdEF4vUeMU6KU1Qh5b8We0LLIeYbF0alam8KFNgPHw4TLEeHni+"
    "Xyo25+gISr/N3rQuEkx+CUPgarl/VaLrUHtgFq3SOkXBTw4vqyXBJQQzh3b7nuFi3MFInVNMp357mkvgIXJd6ie8Vs8wuoln"
    "WCtfGLbQm2msAlbKKsOZlVaCOzkj84LxmIIvMyAmwjFow1AonHoYf5V2ysWFloJ5Ht82SmFE/BGfwjpraAS1EqpRGKnyYKBd"
    "YMDcHZtvamRJDCTAFbRMmSJwiOab2s6DE4IvpMzeHFpEyV9GMLPENbjiwOTbuFZic7Y2jhW5+nmjJI2Og/2Nzhu9T+kwHfMw"
    "YwQVxPq8sHVnmQWEwu3gAIXo9GmgR3xQwfgQfe5/PvvoUtLsHAcdnI/R9RJ8gjz29tEiLpzW9HRltRgsc6eSWqqUow7UmkkB"
    "HW3qfz9hCThrAMeAsn5kh0sE6rmBDS2DrNmX0TO3reUsqTSQTFh2s7fxD1cB45bhL5lgrevob65hkkPhPAnwarRZEiyHyLeu"
    "lMSpHseCczH9+K5PaSzI4g3G87Lc3OF54VFr1hyLslRNQs1MlSebCSihfODxrE1ok4KY9L66EWbVQt9WjkentS+pYuMie4S8"
    "PjNnGMoElaRu4zEygYL9ENnZc4dH/SCepIUis15Hf2AK20PPmVOhslXp3MfX6/9MYmgXKlStwaBL7vMu9nE3KVbYh4EUVmJD"
    "rPKq7maTwjRQSvBeolb7hKMBAwcZ0QOTEZxeTeMi0jayTojlu4C6HRouSrTE3J02wKRW787YbBFsBN9ChYXN27jst60NT+xj"
    "BP5XeR9xNKgw+m06MGQKA3Kwpr/8+vavl4+1s4O1HcwkhsOYI13es8WA4FBo5aUO+njjqhyQZ8o419Eb6VaTMRkLZ5HlIkPi"
    "fRZHyZIlnhDspWP+wB7hbkPt4KDASKbdEvR+hEI0Fow9Awtt3b+ucIa/goEMPeLco9k7LQcemrTasXkzlFukn8SucDhLwwHN"
    "hK5IjjUSDYnJntAuQZjjKA2PT7n9XFeLMan3DOtEngy0YJ9KzvhBHKDZu8sH0AnDmwBhMh2+VZ/56QCJFCMrXDn/SJ1BR+Ub"
    "1qoaVgXqnXHyACWsjI5iuxYF+8g5lcOoIlUMHB/pn0Y6WFsAdEKNr8PNWZb7Yz1pYtYLB2X3KUeDoireQwaOTnHjMl/yc74m"
    "QogolII0dLrVejGRAhFQ7LAMZ8YpwTGW5KgAt8/hk6QI7MBhuk4dgS5joao3pxmF1MTsOmLhgusz/Q7agS+H02PUJG/DVa7z"
    "q7NqOKRD4VkpH3ixR9qSZBg57mHjxdCeaGqELDkoOwh/7Cx29mzYSMQzdAA157OJRUNwJiRYzChn3OFSCttItQZUHRCwPTdO"
    "X12g+GL4/tGYNdp36Rtdc8pAJ4yq+sOvliMsxUAaHo73h7EopiTSG5YNHh4YTJs+RZ4IsSIz00BP5/becJVeG8hSZpvaTcdw"
    "CRlKNEQ6OktWLN25wsy9sqowJ7cFAX3hrQrHqL04mhP+cFjrKWL73FpBBjXD/JnznfCIiLTcVpAm6PWZbozxce6lYTuyY0XQ"
    "Xa+0bq2+DLfABqUzZXpcQ7Tos7F2YD2j8FADO7BSC+qDpenbuKZYKMshGSkE5Pip6AfKuZRcc34HIHDqBHuTP42ADt5mZcqU"
    "puMHm6oKpXMf4CHtQexRvWpp9WOva5mElO76yDjvRini2ljvaNWFVTg5lQq/buMNsrMtrACfCi4OS1788aSrpDjGWxKncpWp"
    "vk94B64Ip9oo5gD86XxKE4DEGCKUpx+jvksYuRUCMvLF8JEZGGL2t69QMlMa+Pl0yBvYrpHBLxydwarnsKrP2FSOaQ2jnp1w"
    "0eX7+S+s7lHQTcqwwys8OXM2/0F9WUmyqw1SqgH7koNgNRILEdWd/qnODnvGMkct3swh6CllBySWqNX6AQ0OjC0IgnNiWDSh"
    "4m6aTTcuBJLaKMtk+82oBN80pOThysQLd6PjbecLgfzny7ZXsJ9h+ZhZ9n8aqcACJGbZszM3SrlgU1pnS/wss17tKgaDwaC2"
    "w/fS/qghzzzIny1uLzC2YWB3mHOxxDXanBsFQGnzNgRgCQ9R67CXAw6yNFedL7hqWWoIr+DynzJ1VxoVMmZrlfmajorjFTNW"
    "DF0X2R6Qz1Xr+dEi5JFOQyhljPOkgimYTthrs3SDxoGxz5gEzOhYBWhcTnczNmyRVNYRaILkuHZlXNeoi38D9y8m7X0/91lD"
    "1WqkxInoUfv1epZAeOTkRRdhhZzrkaypLojN5MGyp/QmYKh/bMNEOVfXGH/qwyAqADqEQoolDKBucm8ygENnALjsZSrpySnU"
    "NdCl2TevcMSd8ibwTSwJDWcgK6YT73FoDodLKZictIx40LOcxJaVNFL/Ycq03HhvUxiC0EGxv1cOMBxEqtQcwUOJ0F2sD7Sr"
    "SKUhd8tOIADdHELYag6XfBz7XKFEEqsYVtJFTil9Eg3kUPXtqabbH8L3kNkQHOWh202v0DPeN15aJkNYWBKyKIel0nI1KXws"
    "OLUkgdabqQzN8hLNMWpppDqGfNhKyRpTDoNcxgAuUk99nBlN0VLnXQOMN12HckFWJsOOTU6TwaiBLA55gZOhYxl1Fe8gNR9J"
    "S8UeSbkd5U/Ru1LbAt1kgxSPVbK71KroOzgRpQ5njxIXtmC6OYCLsgzyUHdJKNbdAR0o+FUl6hOPitHWjNXAIgdlUYZHpcDx"
    "IQJ60xr3bSY8AzLBFIRhHvtwKmd+9X8WAI6y+vvn96uaUqYnSJ8MoAZPsv7yWCJ4rF3Lp9BHK8iIiQAnleJcu0xO/j/fIDIy"
    "fTDRD0tQs+z5vihP+nFxxCZKOzmnAj4DPEpXqtniffOozFnmkOBo1dqI5lv8M9ay/6xJZiRJUn++nPv726ibPZMkVkkMpFOu"
    "rMgWafjsWsaQmnmI0+VX1kiOKApWAK+cuFz4mREP8xnZGMQbZwBG5kLZu1ileNR0YXL2plOOE6RsqyHkVIFI8+U74Z9IzNv5"
    "4+tdXuFpzoXz8C1TPEUG2K6WJGGmctjxbFoK0dlMiCPPMkEp3A1TZDbAMeZbivomQjeVoXlWrEOVcZrGRfjt93+w+rwv+DDQ"
    "c5bj8ranhTHmZDkZRCU2MWq3evu6Rc5r9SQTcayBUGENIQydHj1HCyQaNFXQHkUYbps4LFtOR6HLv7yrGccUc+Ia/F/psg+d"
    "cuXyJON14GVFiZaGJ33c0L+yr8JyZ0VYeUL3qjoGDpPihhm4HD3htihKTmAKkWM7mTf0c4YxlLBmdYCpnqGsIDVpCLJsrQR/"
    "6hR1zY5l3qSMeffzp8wxYtmXAzPI8gnfSW9KqQehWUirBqppNOI5BqizS3ZPzg1pPCNbIaAD4Dm6Prv73LZqCjNxYKtOTNDn"
    "YYL4WOh8rCfnrKfDwFrXagjYHxdLwX6bNTNXRRPEwv8IA8GhWpjfzmhs1FoUmz+m+msAiSOd2O5lZDKm9weM2u4Tep9wn1Nl"
    "F1I/uyCsaM9sazfUIo30tqJyetSUqXFUQlpRs8VcBimtxR+1vYez81nWW+ZSNLLWxVmvjQxrg2HDOr0CtQy+uUK22mTNubRB"
    "2NE8gT1RGuHYBxB99y1WtJvLIFDpRWclunThzOeXe2cfs0n4FJYgurBSmiXgCVckxsCQeqc8NABxVCGce0aa1ueN4VsWR2Wy"
    "g5EJMMF8H35dVH8CF27+yphcNVF63izbe0Wl+duqRJYAa/YZZF1mB/sndpbG0RoqX70+NbZ2Ul/cOt660kEG5YR4F+nl0Alu"
    "fonM59EhMXeWm744QIO2FpZqpVxq+hwrWZndZQ4lrrMV/ZBbZudJsnIFnXAwOnVPREiszoZCWZ/mZmFlktMFVlo637XFId7L"
    "ei4Z9JEdxDadxNqwxh2inVkxt2qIIQXFOR+8EyMt4dOxzKV1mvkEOPmwXLpTTkM82CUlDXDXn8+q27akEjR3dOya033g4/Me"
    "lSBh0j9Fp7e+NP3IShpLPGNbHJC2d9Sx47730ZUGukdtp2uL8x5lkd7WV3foNGNfYBkv7dy692xancNoQmDdXJIWxoVQ67mH"
    "APATzjVDoXetevJvxLl2yXOkT1DP9vfRY4X6hMlLJU+q590Rts0cKGEXmenI8Lfu73pTNq6lwh6IVBfQNbXvcTCHPLkOPvBC"
    "m43Mk7la/YYaZ19HazDJmEQ7nLbemRYh5FgXSsppSeC0LgsnxKSDPnQDDhIKvmIdJduaeydf64g3TTGW9ivpKuZM3tMKQHbT"
    "wkja6LQ/9BWyMrLm1zlah9sPhk8dW7YTR+9qDmBZGiN1205gmymla8kcbmmtWE6WGrmUPFlmfZKREtXryGoPeNu3I2tgGGR3"
    "h0fV7lkGlIBPnU2HVYkvrXWftQaWKcqc7Nocadr499TyI5pVN3vb4yIf/AjibPhL+rQLj1DQB7aHlzbF5fAbl4srBz1mU9lB"
    "tX9CLteEk07cnOOzP931cklTm0JtOBYxKJFPVxq4Yzi9eSB6YJFdDWXPLQ+1zbqOUmNfAWCTtsdOR8Ac+A5477it0CvfX5b0"
    "1LJ6BTaVztr+oyOv1ubFEKOFzUnbmzUhV1dEogv50q9ZPYd6IKyr8wSnrhRbtobeiR1L128CGjaRU9vWNobW2MT1RjCtdN9t"
    "J5t+1jTWzS47Z2q0PdxtRVEMmnCxEuerLnv2dNFE6gqQw0lkw4iRCvZ9JSg7hD3wlu1/PitfPotlDJyNnw/xpGsPGEvcPcf0"
    "GmXXYFK7ktyycNJgDWxYprmcJovq3pcD74P5R1tKedzdvi3+Sy/TmvSeyQ3ldArcgyaHdwafd0363N+LOw6f19coaQZzGZm3"
    "6w6/WaNzuEI0Mp1/WAnYVLoeP4frZYAhuZ3EdNJJp3OSS6JRPOxqlYAh+JRpiFNk38goc462MxIfdftx6TbthJEWljTmnjU6"
    "TZkAVI/K+OR3wjqmV12bPBPb7mJp3Mn71lUOzeROSXXOY7E5H/di1XH3b1m/EhSQMgUv3thhBjWJLzmbXgow3WlbQRsb5RV3"
    "19UaCjfzdm2ba+uQLKeRJkblOu2o7n0dYRNg0ijNnWoMOledxNI86E2or9LO76ZTrWztqitcJtCx3HfPio3bHAy9TO42GQiH"
    "A7QE6WAfrfRxRokTdyApDuHva44PfSDjTWizj0Qb25xhQ/GNWUv8y5+Gh1eYwpV+rBbmlsWeaVnwaG60CQ4O80x6TZ5edkeW"
    "rP5Y2o49vUBOjVPr3gxXpur4luK19NO93yoW21oTrdtCDC7HovHL5lQgOtmcw98ZqFFsG4pchhhvt47Nl5Kfw/RI/c84q9ZS"
    "LqXvkaUnsOJuBHaDL0ConNxoLBT1G3x5wUJuPcNiWaoF58QcmBQmC8yqh9drpMHgUieb1PpUXS1fQ5Q4IyHMRq/NqGncQFKG"
    "hFrFDY3m0Izaeyb4CxEOgIbF6IT9sMZ8LpOLQF4q8ra1XpWg61aIU9qDDAvk5EE9Bx9Lgsq2skTNamkna1PXZ+qmAuqcWkZ6"
    "2Bpg1raSBbROHoGbueWyglrXYWAsKJKhOKuoD6eUWNsWOEs/bqWgqYpaKo+U7j7oH/BK0od1u7NccuoCg1144bQSDzxlV09x"
    "fa5u1x9reTJXwXEprF67I/MMIFkyqHkE5aiOM7xuEGTabWCZRMjMjeYSKjjWeg3QTwtb2SlrWEzjnOuEHTKM4TFuamAG3sYh"
    "NXCANkxWy6yWg6EeTD9LT1xMdffAMcRZ+J7hj0hZsqVSy+6DMQKrhoA59b5HuFwhk3I1f8lNZyzL0ev+0K5wzMVJZW0T8KE5"
    "bQnt039klzpb29aHpvrMdBVPcJYe5zq6w86qNCh3S1zAPWbJqfUgr/XwvlaTARlBLUDbrJSDvxKK5wmslT19z056cAekhQMQ"
    "KvrtiRMuiFKARvYpcS+9L/i7VBIXo3p+fyec7D4HT2aFu7Z7zHvwnjOL2xknDloOxqpdEekKiNnYzuXvuROOIDcGYEXrSizH"
    "zhGH+iB9VUwwHggBcOm09rpspgUcCZzw5zbOitNmQobDM+fA+7VncjYjbBd34lDsKzzbRoXKLonRDrweMxad9FhMw5m5wHEs"
    "IpW58ctRDzqfSQscoeZEMrVuTlLjykhmTVlfwW0nO+GwxDo8OC2BHWad7AAjReFnCJWX5MJ8OU0tXXN9gX+sKwMLF8ohjkCl"
    "6FKSUQedsOu62L+bsyS42ZkB4vWZokokt6F9TYZabdiRle1aoD3Cd10LKBgnhlB7bh/b+7KmAqEyWg8q13P7Qto0S1s/XIKj"
    "+DSC3HH14OD2EOpztmLmsMiwivSwNpIFoDnDIPmUt1FxZhRpLg+EIoFbZr06DIpbYqcSyko409KpW6mH7eVFQeGHLYdfWtPN"
    "wndjbUHfmRlZBhdFP0sHt19ufRx1+uDuCqBpZTvlQelxGFniqBElXlMlnIqSuP9NF1GYGVKtegWayXNYU3RxtR3CYd14iYbk"
    "2nKb/bb8Og9guc3mlAB8gudzauBnMpV9PeDak21rDWHM3THTlMlX+cmyXCOYg03t1vp93XAYYDThiYtsUFa1s8YfIXeNewcO"
    "bYSbE1bSSQFJwgmeO1C82Mvp+uYtnZzMYwKAnJjrSnhAncwS25w1C0H8fs1SFag5ONhv/GKaNmnpcG488bJ9Y7U0jbI5dJpd"
    "TFwj8l81WdeEndqHI0uJvQ4EuHJ1ByWWKi6ScW1Ml7CxNN/vu+aaKtgibsBw6zO7stPNEUzBWy35ZnviQGBu5/Gw4LfdwPpa"
    "vWRrI7js0NZ0aMIzMBRkD0tMlnt9wmYHx7IYaYhxTCQw+hQ2PhzRGPmQZjjpfWX7Zd/a8pZgjDRK6Z0PK8f6tlZSRcBLXVbU"
    "eXVQydcMbc5wiTkMz/xeWHF5ZFtfWPKL3E3sgrYc+NIN7Fz9FVwEWqxDbex8PePqWTK4TfS4meSOm51yIwSX8Z+QZhlfsHcm"
    "T5N1iMDZd6XZFb4+eAoQ1OJb79hN7NUJXLfIs2sYTMukRatvVVAFQRwI64EHCIbPcK2tvmMoAdeZucxkH2Ac+jxWlm1ISzwx"
    "No3hnP3wXSVw6afxHA2RpXItzFOVXEl/u7YOM0jjtbcrpRljpNS6EGLPAVi5U+5h9xIfl4EJbnhks54zRzG/59mkXeIDwW+s"
    "Z9pwcg4AVEGdCPO8eJmzIQEsrRifA7S7Ntlxt1Gw4k1elGepN0SgQWl6S/nkTnIJEZ5mSn29Vcf4WxtYz1Cm9BYcvQIv1tOp"
    "UFNXC0u6yjym7OrUXC0YclT5oLkubMwlnCaxbBUQeVNbLRBQ1BY36gLBZ64p7mprjHbDD4haJvipI7+atqPTKAWIS4hP7+x2"
    "UyR5ixPRIS3Wd8plKHgbNR7leqXoOMz5MHcl0R0LxHIZOrAwy5hJ0ByGQcSuZcZwpVzHNZbIg5HFpJDpcE/pG3iUhGiSOraw"
    "p7oMrAKHlkuHxfx2wwphxgvZFRpPLmscymYcE5SZzreAjpWRZ0j9BA0MBt62KqiQfNRB681LUauXomQVCgt1/cFJWbbcl/Wt"
    "KkhDyhMHKNdRF5nRgmDNITZnaviljgOgcQK4Ajy+c37zBSiBJSwtX7zV5nXxCD0HNmhoqzZEaaeSC3aIcOlJ5JDCfNSnhU1Y"
    "usLqNi1qatHlA8dTSSiOJwPrhX2Hqxv2qGRZzgJ4oMZtrzsg45yPTGfVS7rldtlq83B0ZHZLJ0m+LF+Uh7ggi9FYAsgOqz7a"
    "+JLOdptsqzBSRWlOYJX1otCmTmauP9WknLPDXQbZ0pf0O4PqEVlyxRWHSiTVoozqtMBQt77ewC32weV8CM+1+KCpk9RgZzlY"
    "InQEsW34bEUC3nrShxVs1PxeQaSy+8Ax4xjKwIGJOc2kruFtJagaMFzUnXQ4UY6eyIpTRrgW/EZhu7JJ3kjRN8tfqIbj7g7p"
    "xryc2eQ9U/o75TgZn+0XXFXMmTqdcsKMERAVwNL5/veFaUphiLbsvBCjeQzt1PkACkzBILHuhDclStxBwOnEpc/O7sHDGsUm"
    "orTQmNy12ymPnMNUnGa1OcO/4TvgUwKEbH6KoUzxeeoayX+zzJ5LQDv1mdOgKgiBfCyrZBY/bsx9SBuAhb0qaft8TmXlstfT"
    "sPRLexaG7gnd3399+/j5y+fff/2P0j7F5rcgQy4OOV3mOzhVDpwpOyMXthxicIFL1jSzbXSqtV5WeDelKlaacguvlCMu3EB6"
    "7nBg5R77YxiSWR9r59kxrPLlhDQ4aKnv8R4ngA51RyGz7KA0Q8Q9EHYts9KZZeK4JQkFPJ2Sy7tit5UtE3as2uDvtfEVpi9z"
    "eKc2fej9nCLRdQqJ5kQ4djAcx+PjDmxgD1ppRVhAxTXBtS5gYdRA63t3S/fS/UgAB7iyMWbLe9ToJKUjezCnYc+2/g7+4D9W"
    "ZHdJSh4jB8Gw1sWrfYZmmz5ZB8NRu4EfAafc1pe81vLq6kRLyY1mf3scUi/fq5/wSyPG5SRXKJ4YsoRqd6yM0KdWi4VNOPwG"
    "6P1M3H001oLRYLiUjDTmL5R91hfdJO6lN84r0a4L5TV5h/aV1aGJMfV4EZ5SFAy/43EMjaSyafpJBlM27khA2wQ/UB/Kwhk2"
    "gM5J7B+S3gt/UwfCsaEAVIG7wWUvur+ZT0w8qcuUQC0FTn5fisWxFRwKKluilN9dlxqVLJufwB9RInphrgfzPUbuo4w+Zz+w"
    "JOcq5dXH5q8GOo7p4bAEGWge0nmygOShpXHPK5yiNaO2qWZWX6vNLUd8w6EcqJZqMN1GlWfDQVVK+olC2v1s21K77DuiUx7M"
    "Tjkk6RjR8tzzYu22Z+PyjEpWxsoCFtjBcAKR/FilpOVAH0DkpWVUjWvYzCXkMai7CHmr8WQ1iaGnpaO9gZA1OqplkB8wQ3Qj"
    "Nt3qh1ydA8vycCZjtxiUniO0URz+wLzhOmRSt7GtdW6rTCuRtnslesav25BCGzjIycaBI5r8wsBXJrjAPgZXInelB6m8fNL3"
    "xcXeUMXGc6p8WJTBACtCzQIYqhiph/WHfjPpIvDcYp9FIc+Ps2PQgRXZjDSn6M0gOwOe9HV7ceIUBlbNrqJjK7435XbYhGmJ"
    "udjNv9K2L7k0lU5B+cTmXL+LT+gsLOu6g4WDL4ODlocOiSMxoSFzonkc1MYwLb4Gs/BBiasnlOsQ9VQ+Qy+Kq3yFcuiIuA6o"
    "ZIY17k4bNlatEpQXy0sPFQwBDK/yAfLmITNjpPkWHpBL2Twd4xYFfRDK3ZXu9OpsbtNLmZn9XXhaIUNbU86wS+ZCtrwzZVUL"
    "pnVkp5BkAfCJ1g/hAZm3pRTj4uFoTef4NDNZgdv67PToySVKRjN2LK3b82+bGqTxJZUcuNBdGUBpz3dWB4avsWvOFAxgTTVQ"
    "TcZHt4V6jMf65KanncM4hOPiEMCn3x47ldhyIBIDaFHJXP7DCmTH+lMIhEwzXB4Uh8p+Np8yZKvqvDS7TupofT/g3uAguHH3"
    "A6fEvZPgDueWh/M2r6vcbGkLutI9qu2fw48lVv+Uuv6burCal9Ww3WyzGyfm3oQuWL0Co5hZIHUKGRdsi/PVJh0eNiYmWDhl"
    "GMaC3xPKnA73bN6Is8IO8GMs2dws3Jgf1ZV0ZQwwxxCyz1B2FB6g2ryX3su0RNozlY70fTIF3QzZ1cHw4oBtx8kHVcxZXcGs"
    "l2UiYBCwtSez4UtOTE3wcjjWYECNXcP2ICBULPfNl/2ntQ9v3c9O8MZ++MDxmDIHZdszyRE7nKWSbcGUKxbzJYdDKBZgwS2n"
    "lFSJWFaKxtqFyVOnF98Jl4LsWvTF39RwuiVNsQJGX0tUGoNy5SMghIwhrbTr9tFaRRQ4MosLFk6iLT2/MA+syJtM8jJcn+mC"
    "lLiQQ6dexH3qJtGSg8VF0DrprQZ0mAuoZDRtZi7OHELYw/pkORwGqnKd5XrKR7a+NKmxYuWC8ce4jR7t45Ri1LcWytcmcxh6"
    "kyhygpu8uveMOEc/cMCdd3YgXkq9VBtmASkzzvky/LCx5RY9qltiGW5TSsrSGmk7Cjf0IZB9AaJsrI5cOEbG2o5K4g4CbTvQ"
    "dvExLdEC1KozbK+sIVbhfsKTY+gVF+aDVO2GfU4Bpz9HH4rPc+e5MrEK1aqyls32ZzNWg62MmjAQCU+O8cUwz8Sbq7zAWDC5"
    "ychkvwXhDfvPKYuWVXjGS/H72YLL2lJuNmOyuFNNxTk5qmjpGPW/TwM4S3c5V6rIEGZGl0+dOqzK4aEFUeOzILbgd64eEW0e"
    "8Ed0bvSIps2/zdHitoKQU8ylIOHGebLXXiaIgHGHklu1RFGZpmIAlXXBdwH4ltLiAnliX/r9WwC+MrYtgkjv0nP3ceq8c/SK"
    "ZNk8s5IcGd1pu/1QV5UJHXpuNN6eqCapwv0y2+jEe9LbvKaqMLmIz3PivpO1eJVqE+jibUyCYA8jZqXOMvKrAxd3y+zIcBf0"
    "k0xBIJaL0ttx8olUy2SwpdOxfjisNudq62ojnTiqg32bfqVsZW0V9UpZG7QEq0Jip93gXfqxpas593E0T0vXXGzTg9iwzCWw"
    "O+UQu40y/4RpjfFNT85W0GLFObi9dOIpvztS6UpnQe1lbbnRYPV68hy05/hVThPTnDvUaY/CxEuNUEPwTLfHbmFUqunA/jPF"
    "AYD6z0uTvi3GcjXbycBBdBJNDvYkeHXsGntZraHDvVPaocCLQUwwlcrQeWol1eMqdS8RFryp0pLJPnk/RRcTwkaadpsOWGoo"
    "SSa3cm6l0VnfwTPb8GWEcuSMGdcJ92yrrYUuXCKtmZwdGHsMIx9qWTlhw99DOSpeJs9jkuUubdjM1N8I5BWTlhkY7e/zKFNX"
    "HGggKaDXzJVzZm64X8voWYXOySBF05o7DW5qp2Am3mBTRs8hTIdZDQ6T3MbIPnLvD2VjVaBq0pDNpk6ztMmcUw09h2ugJWDG"
    "SuY639xRfQkrDfR4dpnLnmcgk69cL+cOJQ2ytU7mqizTJdpgCugBk6i8M30VfFv7uTxncXPwVaec18wm9lbkHAf5OYTAOS0k"
    "w5+KbHCM161fsKMWnclmoMAkXcoDc8yIxxW1bNksHrmq1JqNdtptLrUlkZu7nE8H0rGfgLtgWBIQHBceXaSzSqpq5sjI+1r5"
    "Gq3j9FmG4HySJMD5uSVVDKdZJwkoyMArvw2gtTIskm3cg083oa/qzNNkcDYD3ZdNiKY2BTbaKa4IYxFnF6KezB4K5AiolWaR"
    "mh1I78bP1Kw2l9w4WJskYWfl97L5YmweTAOyYETz2dkcm+NUb4Bit5BhkGsNRgypZ1Pj+JpDGGzYAiZpAo80zdzM7p3Kh06Z"
    "1p5XF0BxBS9wm0mbVVDXvAnfZjkGbkNRvpNewC21ZS4xeJY0HgWqDraiLXRsIpf+mNZbUM7/6+c/XuX8/3j78uHzb5erI7lQ"
    "XAAbh3s/wuoQca4Q3jKVEjXO7zvrpiItQeY8GWvpaknw0D/JKxOeGJaGRO1KnN7fdXM7gVzw9Tgdr8iAPxQpV19TehN0KlNs"
    "niTFqAcUVIBkOTfSue2fBcNedq3o/QVct3m+9vJCGLXMslaHvB0rJ2NkjaMS3suLm9m6mFljFLhagzP5T0VwkysirTqWdXg+"
    "bMtb1ri5lJLHLBhan4rdp9D2XpqhhkJQRi/gk4JRcoFN+hSubm1X4CYHra9kTWglnYxtuXLIr1Qgsc9Yb9yhx7p0FizB1pWL"
    "3PKgU9OFLHDSzOw7ozZSPVZAMrPADk3uP90oV5eAo+A4QsBKiHt77OBpiCZmlwv3VQykJ4vChAULXjhxaSCdNudx2yaHQ6gh"
    "lTxp/jLzz0v9NsvsuZc4NZabKMvIdm7zYwwkM0XEUp5wcNhqmsIrx7EZcWDixerUkgbHFBu0V2RKNIcnKVEGFLnXiPvF4lbS"
    "oZayJEZxA4NmOAF9QGRmwFlSx8IBIjGHeAP0rho8LoGlc5vLGLrDzk4udIOe8T4ccqFmcBWkryVHLjYeOr/GiIdNrBmLeOAm"
    "Pc3zE9mhP6e5hZjWIG9cNrQM0bjDyEemR8xAeqixoA8rE72sdnEgvak4aR4VJ5FzO7rUGW9h60uE6FBGZVnmw+RRXPOHsVwi"
    "9zwoLzsJS2ThOK2hamLIGSvsmD3m6OJDHDlWsdRsWMlZ5F1+388tfK4BN89B4HU6V6P6bg9fe886peDl/Z88KLDS12+fqlkq"
    "kyhC5Gx+I/EPdoYfZFQVgQIihTflc/Y3EuWaRHEIEbsCfO4SNcTjmIbQXO3Dcr1w01qiH7XUmvvKAYitTHFd1bcbXGmmD5Vj"
    "h429U9+1a5aufPQs+rcUNhYcLaky16Yrc+4Ca61kcKKb5lJOWlbYKbIJKKcoEmjVoV2lNtkmTtF0HNHYKQf/oo045a41Tk7W"
    "A1lhvFKw1O4+lXWYXAo5ks79ifTKspYoQ/uSWW/m5uazCl/aqO4UZ6uy4SxinGEWuD5pzjWCIxWauB28BP/5lt8e8ll8fzC7"
    "SxJnUWecHGsIB5KTE6dTuBFWnCs/yVrweQNnnp8qOpcSVFwD95/TFXwelGXhNjfWw7dL5+bQ+9iqsHn3d7lIh4E+uPyC+jZ9"
    "vHmxei+4r1tQOOec5Urscj0xeWVcGZCtWHio9EA2odfq8TIVrSykJkvOqDPuMUHKLTnw0Bhh9AP1MO839kXVmgF6xmt23tXS"
    "hOi5OS4UCnOIwlzzWXG3sIvcOnXk3txyiLgNy6bsmFfe7b3gubUgRmq9oPTBbbNjQIkxXdwOrGU65ZuvHnPVdiQqmungh+T1"
    "MaAocRWgGY4m7KQrM5oW0xLdC2Teles0jIzhPnh2OR5ik6aOhrSlNsKyqY9Dlv2mfKfI/A1fzvhFKDlNjbs/uKU0XZc5TbMO"
    "pSiF4xG1DK0vatLc+UpgHBg9Bxuh1EY5dV5Ja5vGNzPpOpDeWnMu+WWLhx+ILw62bRKCYbAAujUUBt6HoEUPqeF3nNm3gkCW"
    "FHA3CuPM4dbGCqc5KX7yFJqwwdYwV8JweB69FY5pjIdCvnWmAkxFZJv2uKt+48raDKKlOZezrW9yXOlaycbiFDjJHDe1N6r2"
    "NVMT/64Q215x7npe0EZZ0Eta+fMKntdeUu5v4tQ/v8GI0CZMS1LEPkrpN/SD2hh0KvT0Mj8O2DAnmRvZSCemryiOQ4VZSAlF"
    "YgbS+VhdnwKjozQWuYHtlgi6r1yAb9JKBWlwuzi0AxnfVtIpIA7PWc7qLCC2jRDkQDn6wBKugbsza+02vopzmyBxTFl3qrUI"
    "otRwWvbYsOBIC6lagjltjIBNtM4sFJePVocDumipvlIMtniW4bhgusJiVp0YXn2QjGkjHobSliGyxnAzegiCyWCO1CLqNQUP"
    "l5+DhFhrQ6r1W+K1nJybTOVwDs9ypckmcIx7ClJVwaahDbNxOIXKZYK5NvsSMO1aaoglPUDJEN2z3khNoWv6OdlnN0C2U5ku"
    "U63kbsa4D31eapwRFoW9QgB/DzuJp83K2TLLksKpldwMHQYMjzvpuYfC3EV6HGNAllGWA0a83mTat0LrWJqBeRnAOMrq4Sin"
    "yHLtfWZ5HDQPm9bcRjqH3aQAjHPxlOxWm0mv2tta48etEcaw0axT/tfuWl+rFuE0JplmdWMjTA824qmBTHbAOFNHSZZBD4D+"
    "7F3etsAXT6fmMqTUjSg11vGtTwq4mQukewm/Md8W8+W+RiuyDJJJ9vvMbQ2Pw8oCmzPr8F/FOL0YvDadQykmw9ke+oBxbC99"
    "kL1hkYGV3RVV4zxYavuIF4TbLmUKRyayrUSC835k++OBh4Y8BgvHjWfhw0h46rOW2TGOPRw+HrmNoJJfwb3p1EMnbvPlAq3M"
    "6XN01mX43ondVFtZzfw8R8qHW3cw9x3AeKhU1z+bvaMLpoYsKr6Dee6HcUVXjonu63eAC3Am9YYMg1PruvrJracuJxhiz/yz"
    "/OcJp+8J0Ks8AGfvWRkU1vxnngZrMILoWfHCZdGH6IeqYL2ek4d+Y9vvxseX3qpzNzPQDVgpjLe/9M+HOqFTyeyqMBAOAbKW"
    "LeSmQ7Y/xIFs7ARi1yE3A0r9lTbpxG62SAM1BbRbzmdmu2J3LNowDM48i9m2TSiGs4VkV/J3VBvHHuADBAHvhcq5j50DpvfW"
    "sktwe6auS6CacZbdHaxZP1i0Ie1mf/yOd99yFeVqGNMow8L8eKhTS7JppYgul2EFaaOcvCNZBRApwDaPpOc0sQzugreelKyu"
    "PF5ruS3ZHUA3jgtCzjqkRdG4N4VD023cb3YRTaBaNr/FxG7NNQGVey+Ebov+NGeBlAzDs6qgICWssC6Mm2yPTcP8BZohFgta"
    "VYabHOLwXRus8aa6khL/7WtiA4omJdltuku6HdJUdU5KYP1G3EXdD0NspBeNVtVLzRKbMW66bhnmULSqsgB2Jx19BPcI2ZD1"
    "Sj6pUi56IZfqMraojlRnkM44gysDYWXebT7srdatugiSz4SFdDIeoa6uu96BqZIkZt3BHukBwVopiQiJjVbukNeZqjXlTGM0"
    "NCGd9tYkyOY0jv/0wbuV/svLH7+9ffzYi3jYeu9jypyDcmiWvVstUReEjqX0jjNeaWRKAt9PrOeH1SpGnDKZX6XtkxB72VTN"
    "9Juy2ZhBPw3uZh20yRk9wMZRqjNmVnJj1khm6zI/a42qwHfdLx5a87biWhdu3Ohky/SQ0OJfBpopqpLWMfGwo21itniKx7ja"
    "ZMyMrJVmrzvF5a5p0okurHNPYuHVIHCvEucJlpF51t/icqZKOD2f+9832rWaLZRqacUdAJ32qOPEgw4+WiW9jeFU4FNpJY2V"
    "AryDUsNr/f3wb2roaFmj55RUyfoT/OGP0x8MyQ3V5xN6H+vDZt5VawSISIY5nwN6NxfvVjRjM6vs6RscY+uweQEurLYT5yxY"
    "Nxfd4rlBOTGjfueD2TrLDaYfdo/jfHa+mCrGmUfgyQTttu/Oa2EgW0eUd7K1ZCUeZnjbxhgwZ4lB/pU29IFydYMSoxIQ8IHy"
    "OwV86wWNnYXMobG1LrGa7oB+zLzjiWV+0JZMoW25jcFrKoPWHWcw5VGGF7vWVEcKCXDCyQ0cb9W2OnRnKe23wl5ROREvt/ll"
    "b9IJfo5dmIynQnq0mMH9nsZ5ObwnT2uVa/2JPaQb2/hSDswBTmGzWjwwywh++E/wrkm7vNsCM+l3RpKkqS/EAwBVbfByLSvh"
    "EgYCgeBuHA7V7UHkwiEtY2jn25qmiUq/SebkZynG+G8pb3MtLoffwulQ8U5Gi+PE3nUjm+70nguKSyg9c+IKzZU5HvvUE88p"
    "BMpxslw+0dq5b4oblmPOWR1u3gz4g6zvOHzEi/e4PNUPssfBzF4K3sqas2NooyYez7GNc1oksZmRA3nZGL9e51QaV1J3bM8s"
    "KfnVSxnmLVIPJa6wAmYcKOfUXayVZOwokba5uxzfNfWLiDrt4S8/F8UB/wGecXW0td8RUko864UilwMdblV1HxFvymmbYIJR"
    "7bYi1e5KtLZy2djr1PAG0zQNk1SAu6PUQeUOcskX9GzRSScfUl8at/Y08MbTrQDbqz1SKRj1wPEh/XKGfZatIT+wHNrYgvtM"
    "OpW6hSrnrCpSucRj497oDRSjZFlAv+PjhgrGSJLKMbBM44ns1Bp5mZSatVOnU5b2RValyNjls3DVNvgsiDQDUdgT8NDD7D1Z"
    "tSKNtCaY3asf+1ApTfTBwLZuOJgBDvvaV8omH0sW7FR/zrUKT0bZ5weX11jFfYzpHDC+8oT077gViRPKDqBiKnWKj6SltDsc"
    "VNYoBlDJEXqIy5vUd62apTxYCG08WDU1h2AMdAaNpTvkCc0wG8RI6JYTpbj2eAvy+mFZgyQq6bq4otriXViFu17grKnsghoo"
    "1/hHzZKyiieHJMmqg26rGkswnePaMHbZ2M1o+XEedZSeMA7TdemgPOapL3QsOaij5HKOiqbOrMA7yFIBItzv4dXSZ8RI4q41"
    "24CJao85TC1ygbkzeQ+FuKtCodlYryxLi1W4CYXoBhll3QTdTbfd11SHy/QWoDWMVkx391VTUJREYAwn7Q/+HI1ov67YmcMC"
    "tfW6luHYbIqNYjKVPikp+oSekT9XMxYrARO32ockKcGbKOJlytnCwpleByae6phlcx7HR9taj344ldwC0YYRYSY1zPlQ+r5H"
    "wMLESbOnQ4nDCAmuuk6KTdo63lndNqodqCBF5pJtPnH7tLGI7oEsAWLI4MbwJqmI03GXhxbp9aWMmahClUpzfYiOVJ6lF+E5"
    "JPJCWn/7z7/9f9vWFHQ="
)


def _traces() -> list[dict]:
    return json.loads(zlib.decompress(base64.b64decode("".join(_TRACES))))


@pytest.mark.parametrize("seed", sorted(_JAVA_LEVELS))
def test_generator_writes_the_reference_maps(seed):
    text = "".join(_JAVA_LEVELS[seed])
    tribes = [C.XIN_XI, C.IMPERIUS] if seed != 999 else [C.OUMAJI, C.BARDUR, C.IMPERIUS, C.XIN_XI]
    size = 11 if seed != 999 else 16
    level = generate_level(seed, tribes, size)
    assert level.to_csv() == text.strip()
    assert parse_level(text).terrain == level.terrain


@pytest.mark.parametrize("index", [0, 1, 2])
def test_random_game_matches_the_reference(index):
    trace = _traces()[index]
    tribes = trace["tribes"]
    game = TribesGame(
        map=f"seed:{trace['level_seed']}",
        tribes=tribes,
        num_players=len(tribes.split(",")),
    )
    state = game.new_initial_state(0)
    for k, (chosen, n_legal, crc, stars, score) in enumerate(trace["decisions"]):
        names = sorted(game.action_to_string(a) for a in state.legal_action_list())
        where = f"decision {k} (turn {state.tick}, seat {state.current_player})"
        assert len(names) == n_legal, where
        assert zlib.crc32(";".join(names).encode()) == crc, where
        assert state.stars[state.current_player] == stars, where
        assert state.score[state.current_player] == score, where
        state.apply(game.string_to_action(chosen))


# ---------------------------------------------------------------------------------------- ruins


def _compare() -> ModuleType:
    """``benchmarks/tribes_reference/compare.py``, which made the ruins traces, as a module.

    The fixtures hold its unit digest and were played with its ``java.util.Random`` in the
    state; the test replays them with the same two functions, so the check and the tool that
    wrote the fixtures cannot drift apart. It is a script outside the package, so it is loaded
    from its path (once per test session).
    """
    name = "_benchmark_tribes_reference_compare"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "benchmarks/tribes_reference/compare.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


#: Three reference games whose agent examined ruins whenever it could (made with
#: ``benchmarks/tribes_reference``: ``compare.py --prefer examine`` and its ``fixture``), cut
#: after their ruins: every bonus (Super unit, research, population, explorer, stars) is drawn.
#: Per decision: the action, the number and CRC-32 of the sorted legal action names, every
#: tribe's stars and score, and a CRC-32 of the units (position, type, tribe, health, status).
_RUINS_TRACES = (
    "eNq1WtluHMkR/BVhniygDWRmZV374B8hBGJEjlZj88KQ3JVt6N8dWdU9U9XVQxkGDCx0rBhdV2REZHXf/Hv3djp+Pbzufts9"
    "vz/u/36cfhyfbn8cd9Pu4fDH4eH29XC43/3m3LQ7Pf0+/42Z47S7P9wdX4/PT8De3Owen/84fPqLTPL5r3/Db/x5N+XJp5R8"
    "clmnGz/5L/iV/RSJvkwas0+aSfA/d6fD62F/uvt+++34+v349PtuCpMQZaEcOA9YcVG9T1lDB34+/b5/Ov5r/4Y57SbBVLKy"
    "Iw5K0w2dH+EFj2DHJJ40l0ccnu5v395PQHGaJEUhkSAGouugZcFcFyxYMNMkPsaclKKfbqSHu4jZu5BT6seUKRHmGDjlEaMa"
    "ogs+5suQqe5xmAhDCk1KiaJEDGxwuQ6/DKmTz1lyYs8DRkLKQYRSbFfZHCvORiSTJhagdYXGnwKzxn5AN4UUKVBKMkB8ppyc"
    "s5NdxrO1YbxUlshhcskzeQnqDa0tWsWDYplTOZTXl/2fT7d/7k+n4/OpbtVu8obHzpOCtms8i0viXSS/njGrdzkkzr6bsjNQ"
    "tj113mvHwNf98aHQF+Ngd2OSWPYo9Gg8lWKOMV6hEWaNU3NYsHgj4XXw4cf+8fhUOFHIIFiTEw3eGU5bHDhCWKtjw319Pz7c"
    "356e9/c2tEE9hk6UfRac/gDmROJA0EQDDePkDM5TkJQyBtdhyj26HVsLGBDByM5lTHBAC8UUvQYKAx/dBh+bAnKVHuxRdM7A"
    "3/enPw6vb58AtH3uSLnCYTLYCBTssF+u7FegyXnnWZXDZc6oxopmSABzV0Np4bTNGTrjYsAxJ8z7LDQfwW2fS9W7smRnRWPy"
    "SiM6ZgY9OaeNiqgMy5NESdBQMqZIj0+QXfWoicvgrtJTCzjiwJRRcF7PY7sZC95Cjuah213L9agEkhSALmI1b9qCdQEqoJBH"
    "boVgXrVUejOezfgxH4aht+CpzjtXHfGTWZEXVh7Qgv12CRy+QjJmrDpklGWj7GdwIig7GKMXtFa0LzM3iqICIsaIA9pxdoR9"
    "c2XD929v+7t/fCrAy8pxKBkL9LKBFo4wJc2dIOSFpSC4J875Yg6XJWfoQQhVq8+1Ect6FXzzaoKAyhugKHPMxzP79qhmPeAq"
    "YdEEDEzuZ+zX4Lv9CwT38GneKfw8BFcSfMsXse6gkBhBVcJhvnyZlsUikPx7xx4JZhFihBcn+Pvr+8vh9P50fNv9/Dn9j0mH"
    "5MOkw//XpANKJlW4CA+6i6zBn38Vc0KUDEUOvU19f396K2PHCVGHYnASBqiANzGk0IYdruXE9aRQEeadWVjiRnBBuMAhZn9V"
    "hK7Jbx1djZnZNYZTVnxJBRCDzEaFcJHf8+AcLfb4dDUTOMQmOGm2oh3wSbF6xDXfLr3sOi05zyF+YnrY9Yt+Loblg4N056yD"
    "lvB1w1rQqOeIAxVNG461FRXPQLinh4gobyUDti2Fn4EoaVBeRpE7Y2EYaJZmfjv1OCiGAI66bfyGS1M/44o0wUdugyM5HpEQ"
    "PW9eRRsco8oxFyJSKrKfG4TEQroEn1sVonaj/RQYwQ9Zd1QhJWwxCE75ml2kKUcGjaSXP1MwJ3BPSi4N9l7lz8gZLRlkqQbb"
    "wbEhYBeCVrdsqvya4VZUjBOjdA6fCzzCRBA9owybVqMcVhFDzgE7N2CdYLdCVKUNt0D4stzPoG6+BO3zblNGgPTSVkWs487S"
    "bTkduQIlRDrAoY0Il2Hd/GCXg2erFpctKHcYywpRY6qUXjmF85aTUEMEnTJo6KCmqYTZNBEq1z1G9ZbzjVMWUYeOLrfwaHQC"
    "5RDt4OuDzzD84/Dj5eH5dDjBOoQ+8JlqMNPxEf98fH9dOQ3rymnomtP4mkP8IntoTBC1ybV+EUxpFcRI1qP2mxymDLFRHxDx"
    "1hCHCIoimlvE0SNQgoxjh5BHJy3a2z5Zr5glapdzfS0irRWIU3DJ+TIyXcU2jNApo1lDFx1xLrHH4FGE3qfNpjZQGW/eHmcn"
    "KuB/QUuLxiwU0TqGPvFUqLeMhsxjMXJEQlxhiLpq+E7H+7pJ3Zzzygo77BKofS3YUNQVNYnSsZh2jjzb6OplGPZwqsQwJ0MZ"
    "mHZjowc0fCaKotfXdsP8XAY6exnUjJCqsIobvuiF4XMQ8FJXAdFwCh6K7RjxgMJ81IRGCqcq599fbveVHGYKiqfCjMBjA5+F"
    "WfwavJRAqCUQqpfBtQnRpJSAu8CDnVTCXqJ18h28rniKn8tZQdURTV3iEW53Isad1b0QhC4gZ5lpe8Noi2EEAdSk9noe6wGX"
    "9WYTXkS5SNZ6+B7ujJHQ1VZYXV2w1hlje1Ow1rrMeAUHEGevOL4PbsPQaEeP3B2daeX6CRAGhWCm3IUtvZSx7RkyLNBkMk1T"
    "uo5vAsDCL4cAIC6OQFgoOaw+dVO/ezg+fi11hX1LDmYlIZf0cJb4SGv00nXFhihwCDRd4C+HErS4g7scylXVwBMqaLMz763J"
    "tnS8BpMFHlQAdUvmsmTYKDCecCQyIH3QlCLsfUPBXFUwhBbk4pKq51AOrytgOJLEhD5wO9j6UpfIO4rcn4RGPE4RmWu+OV0S"
    "U2iYCjVB26ZIZWXqbkGnsmOU1W4wdSCqFKJm/AibLGhNPR2aCdxT711YX3+qHS+AkQaQs8aI4twbXy7avh8PD/evJT4kkB+8"
    "5tKDxA6MpkgQP1PnFq7G2oWblljQVsZ8OakP4J252VYjjScccxrQ6FODQ38gfkOHlq0OYkzIRbdXaNQrmBtW9ArzrMlMG5kp"
    "DUgsKGCnEeHW2jufMMxGkKvKHf4yabSOG+Bl0k1J2Q03egi076kecYGnTfjQ9C3Sj1TLLscw4FnQ9KF183StOJDJKaEmHV06"
    "1jyj0Q2AXiic7rzacMATzFQR8EhHtAcHotPsNh0eDTlnu2kWHqA4fkJduKit/s9SolWIyjUzgsfF4Bc0ihUGApYPPJkTHyJ8"
    "TNYQcm0GqJ824g7+gdKGefjSDbgSTLA5PKA9pETRW8nVdACrEJP+TKaCc6Y/Dx4j5ZgiD9EkLWMjlGDqxDqA0Ybkcmk2FOcS"
    "Ha04wAfyema5gUtqLfqK7j91fcy83ehdjWPJbhqnm9RDkTgxJx992r6QYcwiO7HmjeD1vIYz0ifhP25dxzeuA5PDzDIF6zph"
    "2L+Ed2EQO47Mlh1cogy/wrN1+IFyb/ZYfZ27CRqyPHjMvDF4EhwmslOP/rY/PZ6zPoxN8XiNloE/QG9UZwlm2HZGKYnlOt+v"
    "XGMO1qAMcspnxxWUv2Yu7wHWeMR6NN1ewrWLNGtcg92sxBHsQSRM3Y0JB7/X+K8Ee4pZLITzpU4GeGNdqGtlLArNmzv3NwsI"
    "JYOM6doLtJngdky1slWQRFH/tt3+Uh+F4hBJCFog7eYcmurMdgXCaA4U6r/Gg0QI2dyeVlnqWQ7V7vhgU5BrN44u1gmh7xt1"
    "pcoSmiQsTyNkMZeep4Oj/vBfwqa1QaPud61ROy4xB8t2v7yCu2yv3tAd8NADzCEe0oK8TWjfzQnWcLv2NOXotfwOffXb6f2u"
    "RmIje1SESDX3Hp6AzjTZ/UG3e64hO9aPJBWxRa64f+rJnmGx9jJkk3BztQR7w+TKHc8Kby2Z7Z72Xfnj4f74Nkd6LteIdhUQ"
    "dHwAB3uLHai30ia8oMEFN7HOkC4XXNvoixk+7y104egRbexSLl5ebp5XnlG+wd4rtGY4n/ycylEz6Ffw45fLxI/hcy+VlvYt"
    "BRBTsx/gYAz5ZPdfG/Jal202bq2YGwdnhhsGbGfsJeYZf3w7/bN4g1hgs26Hzg3JpWJxlhnyqxt5sxS8dQaEgBNyPL+B+hjd"
    "ShQYmzA3xJ8sG3AKHowT3WKslmtnxg/g2GIa4ahiuBZKjtevwe1+DIvWpANIQlTIB+WNF7s24YhlwzWcfRLhu/BhaEwXPutc"
    "98otVYWxk46xXIanxCFf3rltopurLjsha3EQkdMA8nZ9DspLa0Gu3tvq7N0e3SIOuPQD2luvYr3S3SzkrqRRkqVXhXk7GvAg"
    "Dpwd5h+2FFnniyCYu4ef6AgvpNPAzRvph/fHr4fT7ff3t0/n1GQBA6fiZJyBs8tZi9d5+xFpbl9tpRAwJIlWGQLR+hHn9uLr"
    "9tXOZfsDDePXwHh/+IbTOzT9q70dtu6JS8++2HhQ2l5AJVx1lRQs7Wa0AGSXlRdpCt4oA38HLWRgqy+eEstbDg0O0nC5df8l"
    "uBqSUV3V/Ha1aQO2qS2wTaFW7auRTchagCVbvTqxF/2GjB0y2SO5tc5YWZoWjjNyXLIXL0XD+Bfo/oLVmfwSusdyubFC49Sh"
    "I/ayZhShObMgm1t5YowNOOouOMQGudJxOzsheCbaRx7Qdsvj0cq6PJ5vkf5gaPhG0tA2FHXoyOhq53uG/vOYcry+fL6FHwrN"
    "bdAmeDGdWckMvTroX2F5STpaX/CWdxlIxdkNaHs1DCFkP3zgpYjqUZAjdNwou4XpW8Ymm5hHQ0UZZPY5apTW5woe7EiwiqzD"
    "tzHVp4JOsDI4uc8pj2iyFkbx7DUaBlU+RYr2zhDJDr/S+VOkX8Mx92zwABIz2nlqvjHZRm+aLBTU3mVCQqgz6Q1889LCPsPz"
    "njWEDRA6YEYTXmm9mnJx5tLrwvwhbV2LX+Do3VOhzxCoquvYdpP5LNgfO80d0P13TLF+98X2NSWymOYBDPZYXsHEWmbHplsN"
    "FpXRxaDZdcPCe/hlt8qbO289KusACtgD0pRlJFeo7ICRwl1ScLG9iqkjqlg6dJnHRBIrOUQt9WvQMl/3K/T+4W1/un3+dvty"
    "2N8dlpdFCIJ4CLnydmWsyu45W04Pltm7JgXTQlfVxr3tB8zpPS3vuUp9QdBS2MBjzxntUUhj71gXkCe0R5qkdJ5reGaoksAK"
    "hou0+Wu/yW70obVB0oiGSatH7xtpdTfj6hdJAekCwhR9K8IVypKCXco7+W8uLysayWJZdSb0LT6H7sNKvVy5FrLbuyVUynl0"
    "+25mC99TL9VvonDa5MBaDiOcs71jZad59BATJrW7tGTfVKV4vi++Bu963upBpeW1j0tUzke+CV+9stZYP416fj/dHewlNJeX"
    "1i/PL7e/n57/fPu++/nzy38AWwjyiQ=="
)


def _ruins_traces() -> list[dict]:
    return json.loads(zlib.decompress(base64.b64decode("".join(_RUINS_TRACES))))


def test_ruins_traces_draw_every_bonus():
    bonuses = {b for trace in _ruins_traces() for b in trace["examined"].values()}
    assert bonuses == set(C.EXAMINE_NAMES)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_ruins_game_matches_the_reference(index):
    trace = _ruins_traces()[index]
    tribes = trace["tribes"]
    game = TribesGame(
        map=f"seed:{trace['level_seed']}", tribes=tribes, num_players=len(tribes.split(","))
    )
    state = game.new_initial_state(0)
    compare = _compare()
    compare.with_java_rng(state, trace["rng_seed"])  # the reference's chance events, draw for draw
    for k, (chosen, n_legal, crc, stars, score, units) in enumerate(trace["decisions"]):
        names = sorted(game.action_to_string(a) for a in state.legal_action_list())
        where = f"decision {k} (turn {state.tick}, seat {state.current_player})"
        assert len(names) == n_legal, where
        assert zlib.crc32(";".join(names).encode()) == crc, where
        assert state.stars == stars, where
        assert state.score == score, where
        assert compare.unit_digest(state) == units, where
        state.apply(game.string_to_action(chosen))
