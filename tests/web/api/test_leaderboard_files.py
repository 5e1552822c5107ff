"""``GET /api/v1/test-sets/{id}/leaderboard.{csv,signatures.csv,xlsx}``: the
page's file exports for scripts with a token, read back with pandas and
openpyxl; other teams get a 404, unknown suffixes do not exist."""

from __future__ import annotations

import io

import openpyxl
import pandas as pd
import pytest

from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.uploads import create_system_output

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def scored(test_set, owner):
    for system, value in (("-minus", -1.25), ("plain", 2.5)):
        job = create_system_output(
            test_set, owner, system, ["a", "b", "c"], queue=False
        )
        CorpusScore.objects.create(
            output=job.output, metric="ter", score=value, signature="ter|v:1"
        )
    return test_set


def url(test_set, fmt: str) -> str:
    return f"/api/v1/test-sets/{test_set.pk}/leaderboard.{fmt}"


def test_the_api_serves_the_leaderboard_as_a_workbook(api, scored):
    response = api.get(url(scored, "xlsx"))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    sheet = openpyxl.load_workbook(io.BytesIO(response.content))["leaderboard"]
    header = [cell.value for cell in sheet[1]]
    values = {
        row[header.index("system")].value: row[header.index("ter")]
        for row in sheet.iter_rows(min_row=2)
    }
    assert values["-minus"].value == -1.25 and values["-minus"].data_type == "n"
    frame = pd.read_excel(io.BytesIO(response.content))
    assert sorted(frame["ter"]) == [-1.25, 2.5]


def test_the_api_serves_the_leaderboard_csv_and_its_signatures(api, scored):
    response = api.get(url(scored, "csv"), HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    frame = pd.read_csv(io.StringIO(response.content.decode()), comment="#")
    assert sorted(frame["ter"]) == [-1.25, 2.5]
    assert sorted(frame["system"]) == ["'-minus", "plain"]
    signatures = api.get(url(scored, "signatures.csv"))
    assert signatures.status_code == 200
    frame = pd.read_csv(io.StringIO(signatures.content.decode()))
    assert frame["signature"].tolist() == ["ter|v:1"]


def test_the_leaderboard_files_are_team_scoped(outsider_api, scored):
    response = outsider_api.get(url(scored, "xlsx"))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")


def test_only_real_formats_exist(api, scored):
    assert api.get(url(scored, "pdf")).status_code == 404
    assert api.get(url(scored, "tex")).status_code == 404


def test_the_workbook_names_the_correction_asked_for(api, scored):
    def provenance(query: str) -> dict:
        response = api.get(url(scored, "xlsx") + query)
        sheet = pd.read_excel(io.BytesIO(response.content), sheet_name="provenance")
        return dict(sheet.itertuples(index=False))

    assert provenance("")["multiple-comparison correction"] == "Holm-adjusted"
    assert provenance("?correction=none")["multiple-comparison correction"] != (
        "Holm-adjusted"
    )
