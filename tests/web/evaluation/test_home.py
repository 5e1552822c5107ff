"""The home page lists the visible test sets; hidden ones fold away."""

from tests.conftest import PASSWORD


def test_a_hidden_test_set_leaves_the_home_list_but_stays_reachable(
    client, owner, test_set
):
    client.login(username=owner.username, password=PASSWORD)
    test_set.hidden = True
    test_set.save()
    page = client.get("/").content.decode()
    listed = page.split('id="hidden-test-sets"')
    assert len(listed) == 2 and test_set.name in listed[1]
    assert test_set.name not in listed[0].split("<h1>Test sets</h1>")[1]
    assert client.get(test_set.get_absolute_url()).status_code == 200
