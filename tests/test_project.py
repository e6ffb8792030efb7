"""Variants from the working folder (issue 15, item 1): wherever `mjc`
runs, its `variants/` (or `--variants DIR`) is what it plays, compiled in
memory when `generated/` is missing or stale, with one line saying so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mjc.cli import main
from runtime import registry

ROOT = Path(__file__).resolve().parent.parent
KET = ROOT / "variants" / "yunnan_ka_er_tiao.yaml"
# a self-drawn 平胡 (basic win + self-drawn, 1倍 each in the shipped file)
HAND = {"concealed": "123456789p1122s", "win_tile": "2s", "self_drawn": True}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _project(tmp_path: Path, basic_win: int = 5, name: str = "yunnan_ka_er_tiao") -> Path:
    (tmp_path / "variants").mkdir(parents=True)
    text = KET.read_text(encoding="utf-8")
    edited = text.replace("      en: Basic win\n      value: 1\n", f"      en: Basic win\n      value: {basic_win}\n")
    assert edited != text
    (tmp_path / "variants" / f"{name}.yaml").write_text(edited, encoding="utf-8")
    return tmp_path


def _score(capsys, *extra):
    import io

    sys.stdin = io.TextIOWrapper(io.BytesIO((json.dumps(HAND) + "\n").encode()))
    try:
        code, out, err = run(capsys, "score", "yunnan_ka_er_tiao", *extra)
    finally:
        sys.stdin = sys.__stdin__
    return code, json.loads(out), err


def test_an_edited_fan_shows_in_score_and_play(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(_project(tmp_path))
    code, result, err = _score(capsys)
    assert code == 0 and result["total"] == 6  # 5 + 1
    assert err.splitlines() == [
        "mjc: yunnan_ka_er_tiao from variants/yunnan_ka_er_tiao.yaml (compiled in memory: generated/yunnan_ka_er_tiao.py is missing)"
    ]
    code, out, _ = run(capsys, "play", "yunnan_ka_er_tiao", "--hands", "3", "--seed", "4")
    assert code == 0 and "平胡 5" in out
    # the registry is left as it was for the rest of the process
    assert registry.front() is None and registry.load("yunnan_ka_er_tiao").scoring.fans[0].value == 1


def test_a_built_generated_folder_is_used_until_the_yaml_changes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(_project(tmp_path, basic_win=3))
    assert run(capsys, "build")[0] == 0
    code, result, err = _score(capsys)
    assert result["total"] == 4 and "(generated/yunnan_ka_er_tiao.py is up to date)" in err
    path = tmp_path / "variants" / "yunnan_ka_er_tiao.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("value: 3\n", "value: 7\n", 1), encoding="utf-8")
    code, result, err = _score(capsys)
    assert result["total"] == 8 and "compiled in memory: generated/yunnan_ka_er_tiao.py is stale" in err


def test_variants_dir_option_and_a_new_variant(tmp_path, capsys):
    project = _project(tmp_path, name="my_rules")
    code, out, err = run(capsys, "list", "--variants", str(project / "variants"))
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("my_rules"))
    assert "云南卡二条" in row and "(in memory)" in row
    assert any(line.startswith("kunming") and line.rstrip().endswith("packaged") for line in out.splitlines())
    code, out, err = run(capsys, "docs", "my_rules", "--variants", str(project / "variants"))
    assert code == 0 and "| basic_win | 平胡 | Basic win | 5 |" in out
    code, _, err = run(capsys, "docs", "my_rules")  # not in the working folder
    assert code == 2 and "unknown variant 'my_rules'" in err


def test_a_broken_variant_in_the_folder_is_reported_not_raised(tmp_path, capsys):
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "broken.yaml").write_text("title: {zh: 坏}\nplayers: {allowed: [4]}\ntiles: {suits: [m]}\nscoring: {unit: fan, fans: {a: {zh: 甲, value: x.y}}}\n", encoding="utf-8")
    code, _, err = run(capsys, "play", "broken", "--variants", str(folder))
    assert code == 2
    assert "variant broken does not compile" in err and "broken.yaml:4:" in err and "unknown name 'x.y'" in err
    code, out, err = run(capsys, "list", "--variants", str(folder))
    assert code == 2 and "kunming" in out and "broken does not compile" in err
    assert run(capsys, "play", "x", "--variants", str(tmp_path / "nowhere"))[0] == 2


def test_outside_a_project_the_packaged_variants_are_used(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, result, err = _score(capsys)
    assert result["total"] == 2
    assert err.startswith("mjc: packaged variants")


def test_variant_names_titles_and_did_you_mean(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("昆明麻将", "Kunming Mahjong", "kunming mahjong"):
        code, out, _ = run(capsys, "docs", name)
        assert code == 0 and out.startswith("# 昆明麻将 (Kunming Mahjong)")
    code, _, err = run(capsys, "docs", "kunmig")
    assert code == 2 and "did you mean kunming?" in err
    code, _, err = run(capsys, "play", "kunming", "--option", "pinghu_liang_mn=true")
    assert code == 2 and "did you mean pinghu_liang_men?" in err


def test_version_and_examples(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("mjc ")
    from mjc.cli import EXAMPLES, _parser

    commands = _parser()._subparsers._group_actions[0].choices
    assert set(commands) == set(EXAMPLES)
    for name, command in commands.items():
        assert "examples:" in command.format_help(), name


def test_a_plain_install_plays_the_working_folder(tmp_path):
    """The README's `pip install .` (not editable) into a fresh venv: an
    edited fan in a copied variant shows in `mjc play` and `mjc score`."""
    src = tmp_path / "src"
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    for package in packages:
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / f, src / f)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    # the dependencies come from this interpreter's site-packages (no network);
    # the package itself is installed, not linked
    deps = [p for p in sys.path if p.endswith("site-packages")]
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "deps.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    # setuptools comes with the venv; building a wheel also needs `wheel`
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "wheel"], check=True, capture_output=True)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", str(src)],
                   check=True, capture_output=True)
    shutil.rmtree(src)
    project = _project(tmp_path / "project")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    mjc = str(venv / "bin" / "mjc")
    check = subprocess.run([str(py), "-c", "import runtime; print(runtime.__file__)"], cwd=project, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert str(venv) in check  # the installed copy, not the checkout
    out = subprocess.run([mjc, "score", "yunnan_ka_er_tiao"], cwd=project, env=env, input=json.dumps(HAND) + "\n",
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["total"] == 6
    assert "compiled in memory" in out.stderr
    play = subprocess.run([mjc, "play", "yunnan_ka_er_tiao", "--hands", "3", "--seed", "4"], cwd=project, env=env,
                          capture_output=True, text=True, check=True)
    assert "平胡 5" in play.stdout
    elsewhere = subprocess.run([mjc, "score", "yunnan_ka_er_tiao"], cwd=tmp_path, env=env, input=json.dumps(HAND) + "\n",
                               capture_output=True, text=True, check=True)
    assert json.loads(elsewhere.stdout)["total"] == 2


def test_simulate_makes_its_jobs_as_it_plays(monkeypatch):
    """`--games 10000000000` must not build the whole job list first."""
    from mjc import simulate

    played = []

    class Enough(Exception):
        pass

    def fake(job):
        played.append(job)
        if len(played) == 3:
            raise Enough
        tally = simulate.Tally(4)
        tally.games = job[6] - job[5]
        return tally

    monkeypatch.setattr(simulate, "play_range", fake)
    table = registry.load("kunming").configure()
    with pytest.raises(Enough):
        simulate.simulate(table, 10_000_000_000, "1")
    assert [j[5] for j in played] == [0, 200, 400]
